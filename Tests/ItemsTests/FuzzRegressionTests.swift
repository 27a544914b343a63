import FixtureServer
import Foundation
import Items
import Markup
import Testing

/// Replays every input under `Fixtures/fuzz/`: minimized findings of `Scripts/fuzz-extractor.sh` and hand-made
/// hostile pages (the folder's README says what each is). Each must be extracted to the end, quickly, with the same
/// properties the fuzzer checks: bounded visible text and a JSON report that reads back as itself.
@Suite("Fuzz regression inputs", .timeLimit(.minutes(2)))
struct FuzzRegressionTests {
    /// The input files, by name; README.md and the generator script are not inputs.
    static let inputs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.file("fuzz").path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" && !$0.hasSuffix(".py") }.sorted()
    }()

    @Test("The folder holds inputs")
    func folderIsNotEmpty() {
        #expect(Self.inputs.count >= 5)
    }

    @Test("Extraction completes and its report reads back", arguments: inputs)
    func replay(name: String) throws {
        let input = FuzzCase(try Fixtures.bytes("fuzz/\(name)"))
        let started = ContinuousClock.now
        let extraction = PageExtraction(bytes: input.body, url: input.url, headers: input.headers)
        _ = extraction.missing(PageExtraction.Part.allCases)
        let json = extraction.jsonValue
        let text = json.serialized()
        // Generous for a debug build on a busy 2-core machine; a hang or blow-up takes far longer.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(extraction.page.text.count <= PageExtractor.maxTextLength)

        switch JSONLD.parse(text, startLine: 1) {
        case .success(let block):
            #expect(block.repairs.isEmpty)
            #expect(block.value == json)
        case .failure(let error):
            // Only nesting past the parser's limit (a deep block under the report's own levels) may not read back.
            #expect(error.message.hasPrefix("nesting deeper than"), "\(error)")
        }
    }
}

/// A fuzz input file as the fuzzer reads it: the first byte picks the headers and the URL, the rest is the page.
///
/// A copy of `Fuzz/Sources/ExtractorFuzzer/FuzzInput.swift` (a separate package the tests cannot import);
/// keep the two tables in step.
struct FuzzCase {
    static let contentTypes: [String?] = [
        nil,
        "text/html; charset=utf-8",
        "text/html; charset=Shift_JIS",
        "text/html; charset=windows-1251",
        "text/html; charset=bogus-x",
        "text/html",
        "text/html; charset=\"UTF-16LE\"",
        "text/html;charset=utf-16be",
        "text/html; charset=iso-2022-jp",
        "text/html; charset=gb18030",
        "text/html; charset=EUC-KR",
        "text/html; charset=big5",
        "text/html; charset=iso-2022-kr",
        "text/html; charset=x-user-defined",
        "text/html; charset='koi8-r",
        "charset=;charset=\"\";charset = latin1",
    ]

    static let robotsTags: [[String]] = [
        [],
        ["noindex"],
        ["nofollow, nosnippet"],
        ["applebot: none"],
        ["googlebot: noindex", "applebot: max-snippet:0"],
        ["unavailable_after: 25 Jun 2010 15:00:00 PST"],
        [":", ",,,", "applebot:"],
        ["max-snippet: 0, noimageindex, ALL"],
    ]

    static let urls = [
        "https://example.com/dir/page.html",
        "http://user:pw@[2001:db8::1]:8080/%7Ea/ü?q=1&r=%zz#frag",
    ]

    let body: [UInt8]
    let url: String
    let headers: [(name: String, value: String)]

    init(_ data: [UInt8]) {
        guard let selector = data.first else {
            body = []
            url = Self.urls[0]
            headers = []
            return
        }
        body = Array(data.dropFirst())
        url = Self.urls[Int(selector >> 7)]
        var headers: [(name: String, value: String)] = []
        if let contentType = Self.contentTypes[Int(selector & 0x0F)] {
            headers.append((name: "Content-Type", value: contentType))
        }
        for value in Self.robotsTags[Int((selector >> 4) & 0x07)] {
            headers.append((name: "X-Robots-Tag", value: value))
        }
        self.headers = headers
    }
}
