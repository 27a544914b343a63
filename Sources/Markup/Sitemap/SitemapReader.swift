/// Reads sitemap files (SPEC §3 "Sitemaps"): sitemaps.org `urlset` and `sitemapindex`, plain-text URL
/// lists, RSS and Atom feeds, each possibly gzip-compressed.
///
/// A pure function of the bytes: no I/O, no network, no entity or DTD loading — an XXE payload is inert.
/// XML is streamed through libxml2's SAX2 parser, never built into a tree, and gzip is inflated as the
/// parser asks for bytes, never beyond ``SitemapLimits/maxUncompressedBytes``. The crawler fetches the
/// file, and follows ``Sitemap/childSitemaps`` itself with its own bound on depth and count.
package enum SitemapReader {
    /// Bytes looked at to tell the format.
    static let sniffLength = 512

    /// Reads one sitemap file.
    ///
    /// The format is judged by content: gzip by its magic bytes `1f 8b`, then XML by a leading `<` (after
    /// any byte order mark and white space) and its root element, else plain text. Bad input never
    /// throws: whatever could be read is returned, with located ``Sitemap/issues``.
    ///
    /// - Parameters:
    ///   - bytes: the file as fetched (after any HTTP content decoding), gzip-compressed or not.
    ///   - url: where the file was fetched from. The reader does not read it: relative URLs are never
    ///     resolved against it (the protocol requires absolute ones), and it is never fetched.
    ///     Whether a listed URL is within the sitemap's host and path is the crawler's scope decision.
    ///   - contentType: the HTTP `Content-Type`, if known; only quoted when the content is not a sitemap.
    ///   - limits: the bounds to read within.
    ///   - isKnown: which page entries an earlier read of this sitemap kept, by ``SitemapFingerprint``
    ///     (of the URL and date as they would be returned). Such an entry is only counted
    ///     (``Sitemap/knownPages``) and fingerprinted: its URL passed the check then, and it is not made
    ///     into strings again. A changed sitemap read again in a refresh is nearly all entries read before.
    ///     `nil`: every entry is checked and listed.
    /// - Returns: the entries in document order, the issues met, and whether a limit cut the file short.
    package static func read(
        _ bytes: [UInt8], url: String, contentType: String? = nil, limits: SitemapLimits = SitemapLimits(),
        isKnown: ((UInt64) -> Bool)? = nil
    ) -> Sitemap {
        let source = SitemapByteSource(bytes, limit: limits.maxUncompressedBytes)
        var collector = SitemapCollector(limits: limits, isKnown: isKnown)
        switch ContentKind(source.peek(sniffLength)) {
        case .empty:
            if source.problems.isEmpty {
                let what = source.isCompressed ? "the gzip data holds nothing" : "the file is empty"
                collector.note(.emptyInput, what)
            }
        case .binary:
            let served = contentType.map { " (served as \($0))" } ?? ""
            collector.note(.unknownFormat, "binary content\(served), not a sitemap", line: 1)
        case .xml:
            SitemapXMLReader.read(source, into: &collector)
            let explained = collector.sitemap.issues.contains { $0.kind == .unknownFormat }
            if collector.sitemap.format == nil && !explained {
                let served = contentType.map { " (served as \($0))" } ?? ""
                collector.note(.unknownFormat, "no root element found\(served)")
            }
        case .text:
            collector.setFormat(.text)
            SitemapTextReader.read(source, into: &collector)
        }
        for problem in source.problems {
            collector.note(problem)
        }
        if source.exceededLimit {
            collector.markTruncated()
            collector.note(
                .tooLarge, "more than \(limits.maxUncompressedBytes) bytes uncompressed: the rest is not read")
        }
        return collector.finished()
    }
}

/// What the first bytes of the content say it is.
private enum ContentKind {
    case empty, xml, text, binary

    init(_ prefix: ArraySlice<UInt8>) {
        var bytes = prefix
        // UTF-16 and UTF-32 can only be XML here (text sitemaps are UTF-8); libxml2 reads their byte order mark.
        let wideByteOrderMarks: [[UInt8]] = [[0xFE, 0xFF], [0xFF, 0xFE], [0, 0, 0xFE, 0xFF]]
        if wideByteOrderMarks.contains(where: { bytes.starts(with: $0) }) {
            self = .xml
            return
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = bytes.dropFirst(3)
        }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            // White space all through the sniffed bytes may still go on to lines of text.
            self = prefix.count < SitemapReader.sniffLength ? .empty : .text
            return
        }
        // UTF-16 without a byte order mark shows as `<` next to a NUL.
        if first == UInt8(ascii: "<") || bytes.starts(with: [0, UInt8(ascii: "<")]) {
            self = .xml
        } else if bytes.contains(0) {
            self = .binary
        } else {
            self = .text
        }
    }
}
