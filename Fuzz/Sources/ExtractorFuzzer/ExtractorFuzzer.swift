import CLibFuzzer
import Items
import Markup

/// The libFuzzer entry point for SwiftPM's executable target.
///
/// SwiftPM links an executable target's `main` under the name `<target>_main`, which clashes with
/// `-sanitize=fuzzer` (libFuzzer brings its own `main`). So the target defines that entry point itself
/// and hands over to libFuzzer's driver (`LLVMFuzzerRunDriver`, from `libclang_rt.fuzzer_no_main`).
@_cdecl("ExtractorFuzzer_main")
func extractorFuzzerMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let input = FuzzInput(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
        ExtractorFuzzer.run(input)
        return 0
    }
}

/// One fuzz iteration: everything `searchlight extract --json` does with a page, plus two properties
/// whose failure is reported as a crash.
enum ExtractorFuzzer {
    static func run(_ input: FuzzInput) {
        let extraction = PageExtraction(bytes: input.body, url: input.url, headers: input.headers)
        _ = extraction.missing(PageExtraction.Part.allCases)
        let json = extraction.jsonValue
        let text = json.serialized()

        // The visible text is bounded, whatever the page.
        if extraction.page.text.count > PageExtractor.maxTextLength {
            fatalError("page text has \(extraction.page.text.count) characters, over \(PageExtractor.maxTextLength)")
        }
        // The report is valid JSON that reads back as the same value: any string, key or number the page
        // put into it is escaped correctly. Nesting past the parser's depth limit (a deep JSON-LD block
        // under the report's own levels) cannot be read back, and is not a failure.
        switch JSONLD.parse(text, startLine: 1) {
        case .success(let block):
            if !block.repairs.isEmpty || block.value != json {
                fatalError("the serialized report does not read back as itself: \(block.repairs)")
            }
        case .failure(let error) where error.message.hasPrefix("nesting deeper than"):
            break
        case .failure(let error):
            fatalError("the serialized report is not valid JSON: \(error)")
        }
    }
}
