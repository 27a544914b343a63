/// Reads a plain-text sitemap (https://www.sitemaps.org/protocol.html#otherformats): one URL per line,
/// UTF-8, nothing else. Blank lines are skipped quietly; lines that are not UTF-8 or not a URL are
/// skipped with a located issue.
///
/// Lines end at LF, CRLF or CR. A line is never held beyond ``SitemapLimits/maxURLLength`` plus some
/// room for surrounding white space, however long it is in the file.
enum SitemapTextReader {
    /// Bytes asked of the source at a time.
    private static let chunkSize = 64 * 1024
    /// White space allowed around a URL on its line before the line counts as too long.
    private static let lineSlack = 256

    /// Reads every line of `source` into `collector`, stopping early when the collector is full.
    static func read(_ source: SitemapByteSource, into collector: inout SitemapCollector) {
        var line = LineBuffer(capacity: collector.limits.maxURLLength + lineSlack)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var afterCR = false
        while !collector.isFull {
            let count = chunk.withUnsafeMutableBytes { source.read(into: $0) }
            guard count > 0 else { break }
            var start = 0
            while start < count, !collector.isFull {
                // A LF right after a CR ends nothing: the CR already ended the line.
                if afterCR && chunk[start] == 0x0A {
                    start += 1
                    afterCR = false
                    continue
                }
                afterCR = false
                let end = chunk[start..<count].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? count
                line.append(chunk[start..<end])
                guard end < count else { break }
                afterCR = chunk[end] == 0x0D
                finish(&line, into: &collector)
                start = end + 1
            }
        }
        if !collector.isFull && (!line.bytes.isEmpty || line.isOverlong) {
            finish(&line, into: &collector)
        }
    }

    /// Takes the finished line (numbered `line.number`) and starts the next one.
    private static func finish(_ line: inout LineBuffer, into collector: inout SitemapCollector) {
        defer { line.next() }
        if line.isOverlong {
            let limit = collector.limits.maxURLLength
            collector.note(.urlTooLong, "a line longer than a URL may be (limit \(limit) bytes)", line: line.number)
            return
        }
        var bytes = line.bytes[...]
        // A UTF-8 byte order mark is allowed at the start of the file and is not part of the first URL.
        if line.number == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = bytes.dropFirst(3)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            collector.note(.invalidEncoding, "a line that is not UTF-8", line: line.number)
            return
        }
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { return }
        collector.add(url: trimmed, lastModified: nil, line: line.number)
    }
}

/// One line of a text sitemap as it is read, bounded.
private struct LineBuffer {
    let capacity: Int
    /// The line's bytes, at most `capacity`.
    private(set) var bytes: [UInt8] = []
    /// Whether the line had more than `capacity` bytes (the rest was dropped).
    private(set) var isOverlong = false
    /// The 1-based line number.
    private(set) var number = 1

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func append(_ piece: ArraySlice<UInt8>) {
        let room = capacity - bytes.count
        if piece.count > room {
            isOverlong = true
            bytes.append(contentsOf: piece.prefix(max(0, room)))
        } else {
            bytes.append(contentsOf: piece)
        }
    }

    mutating func next() {
        bytes.removeAll(keepingCapacity: true)
        isOverlong = false
        number += 1
    }
}
