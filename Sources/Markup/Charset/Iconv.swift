import Glibc

/// Decoding to UTF-8 through glibc's iconv(3), for the legacy encodings not decoded in Swift.
///
/// Each call opens its own conversion descriptor and closes it before returning (`defer`), so nothing is shared
/// between threads: glibc documents a descriptor as usable by one thread at a time, and opening one is cheap
/// next to converting a page.
enum Iconv {
    /// A conversion's result.
    struct Output {
        /// The text as UTF-8.
        var utf8: [UInt8]
        /// Whether some input was replaced by U+FFFD.
        var hadInvalidBytes: Bool
    }

    /// UTF-8 for U+FFFD REPLACEMENT CHARACTER.
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Output is produced in chunks of this size and appended, so memory grows with the text, not with a guess.
    private static let chunkSize = 64 * 1024

    /// Converts `bytes` from the glibc encoding `name` to UTF-8; nil only when glibc has no such converter.
    ///
    /// Never fails on the input: an invalid sequence (`EILSEQ`) becomes one U+FFFD and decoding resumes at the
    /// next byte, which is how the Encoding Standard's multi-byte decoders resynchronise (a bad lead byte is
    /// dropped, an ASCII byte after it is read again); a sequence cut off at the end (`EINVAL`) becomes one
    /// U+FFFD. Every round either consumes input or produces output, so the loop always ends.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, from name: String) -> Output? {
        // No "//TRANSLIT" or "//IGNORE": errors must be seen, to be replaced rather than silently dropped.
        let descriptor = iconv_open("UTF-8", name)
        // iconv_open(3): "On error, (iconv_t) -1 is returned".
        guard let descriptor, Int(bitPattern: descriptor) != -1 else { return nil }
        defer { iconv_close(descriptor) }

        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        guard let base = bytes.baseAddress else { return Output(utf8: output, hadInvalidBytes: false) }
        let chunk = UnsafeMutablePointer<CChar>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }

        // iconv takes `char **` but does not write through it; UInt8 and CChar may alias (same size, signedness).
        var input: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base)
            .assumingMemoryBound(to: CChar.self)
        var inputLeft = bytes.count
        var hadInvalidBytes = false
        var flushing = false
        while true {
            let inputLeftBefore = inputLeft
            var outputPointer: UnsafeMutablePointer<CChar>? = chunk
            var outputLeft = chunkSize
            // With no input left, a call with a null input flushes a stateful decoder's pending output.
            let result =
                flushing
                ? iconv(descriptor, nil, nil, &outputPointer, &outputLeft)
                : iconv(descriptor, &input, &inputLeft, &outputPointer, &outputLeft)
            let failure = result == -1 ? errno : 0
            let produced = chunkSize - outputLeft
            output.append(contentsOf: UnsafeRawBufferPointer(start: chunk, count: produced))
            let progressed = produced > 0 || inputLeft < inputLeftBefore
            if flushing {
                // Flushing consumes nothing; stop once it has nothing more to write.
                if failure == E2BIG, progressed { continue }
                break
            }
            if failure == E2BIG, progressed { continue }
            if failure == 0, progressed || inputLeft == 0 {
                flushing = inputLeft == 0
                continue
            }
            if failure == EINVAL {
                // A sequence cut off by the end of the input.
                output.append(contentsOf: replacementCharacter)
                hadInvalidBytes = true
                flushing = true
                continue
            }
            // EILSEQ (or a round that made no progress): replace one byte and carry on after it.
            guard inputLeft > 0 else {
                flushing = true
                continue
            }
            output.append(contentsOf: replacementCharacter)
            hadInvalidBytes = true
            input = input.map { $0 + 1 }
            inputLeft -= 1
            flushing = inputLeft == 0
        }
        return Output(utf8: output, hadInvalidBytes: hadInvalidBytes)
    }
}
