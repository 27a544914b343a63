/// The content of one sitemap file as a stream of bytes: the input as it is, or — when it starts with
/// the gzip magic `1f 8b` — its inflation, produced piece by piece as the reader asks, so the
/// decompressed document is never held whole.
///
/// Either way the stream ends after ``SitemapLimits/maxUncompressedBytes``; ``exceededLimit`` then says
/// that more was there. Faults in the gzip data end the stream too, as ``problems``.
final class SitemapByteSource {
    /// Whether the input is gzip data.
    let isCompressed: Bool
    /// Whether the content went on past the limit (the stream was cut there).
    private(set) var exceededLimit = false
    /// Compression faults met so far (corrupt or cut-short gzip data, trailing garbage).
    private(set) var problems: [SitemapIssue] = []

    private let input: [UInt8]
    private var position = 0
    private let inflater: GzipInflater?
    private let limit: Int
    /// Bytes produced so far (peeked or read), counted against `limit`.
    private var produced = 0
    private var ended = false
    /// Bytes produced by ``peek(_:)`` and not yet handed out by ``read(into:)``.
    private var lookahead: [UInt8] = []
    private var lookaheadPosition = 0

    /// A stream over `bytes`, inflating them if they are gzip data, ending after `limit` bytes.
    init(_ bytes: [UInt8], limit: Int) {
        input = bytes
        self.limit = limit
        isCompressed = bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
        inflater = isCompressed ? GzipInflater() : nil
        if isCompressed && inflater == nil {
            problems.append(SitemapIssue(.compression, "zlib could not start an inflate stream"))
            ended = true
        }
    }

    /// Up to `count` bytes from the start of the content, left to be read again by ``read(into:)``.
    func peek(_ count: Int) -> ArraySlice<UInt8> {
        var chunk = [UInt8](repeating: 0, count: max(0, count))
        while lookahead.count - lookaheadPosition < count && !ended {
            let wanted = count - (lookahead.count - lookaheadPosition)
            let got = chunk.withUnsafeMutableBytes { produce(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted])) }
            lookahead.append(contentsOf: chunk[..<got])
        }
        return lookahead[lookaheadPosition..<min(lookahead.count, lookaheadPosition + count)]
    }

    /// Fills the start of `buffer` with the next bytes; returns how many, `0` at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard !buffer.isEmpty else { return 0 }
        if lookaheadPosition < lookahead.count {
            let count = min(buffer.count, lookahead.count - lookaheadPosition)
            lookahead[lookaheadPosition..<lookaheadPosition + count].withUnsafeBytes { buffer.copyMemory(from: $0) }
            lookaheadPosition += count
            return count
        }
        return produce(into: buffer)
    }

    /// The next bytes of content, counted against the limit.
    private func produce(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard !ended, !buffer.isEmpty else { return 0 }
        let room = limit - produced
        // One byte more than the limit allows tells "exactly at the limit" from "over it".
        let wanted = min(buffer.count, room + 1)
        let got = isCompressed ? inflate(into: .init(rebasing: buffer[..<wanted])) : copy(into: .init(rebasing: buffer[..<wanted]))
        if got > room {
            exceededLimit = true
            ended = true
            produced = limit
            return room
        }
        produced += got
        if got == 0 { ended = true }
        return got
    }

    private func copy(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, input.count - position)
        input[position..<position + count].withUnsafeBytes { buffer.copyMemory(from: $0) }
        position += count
        return count
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let inflater else { return 0 }
        while true {
            switch inflater.inflate(input, from: &position, into: buffer) {
            case .produced(let count):
                if count > 0 { return count }
            case .memberEnded:
                let rest = input[position...]
                if rest.count >= 2 && rest.first == 0x1f && rest.dropFirst().first == 0x8b {
                    inflater.reset()
                } else {
                    // Zero padding after the data is common and harmless; anything else is worth a word.
                    if rest.contains(where: { $0 != 0 }) {
                        problems.append(
                            SitemapIssue(.compression, "\(rest.count) bytes after the end of the gzip data ignored"))
                    }
                    return 0
                }
            case .inputExhausted:
                problems.append(
                    SitemapIssue(.compression, "the gzip data is cut short after \(produced) uncompressed bytes"))
                return 0
            case .failed(let message):
                problems.append(
                    SitemapIssue(.compression, "corrupt gzip data after \(produced) uncompressed bytes: \(message)"))
                return 0
            }
        }
    }
}

@available(*, unavailable, message: "a byte source belongs to the one read that created it")
extension SitemapByteSource: Sendable {}
