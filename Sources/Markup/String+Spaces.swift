extension String {
    /// The string without leading and trailing ASCII white space (space, tab, CR, LF, FF).
    ///
    /// Read byte by byte in the string's own UTF-8 storage (the five are ASCII, so no UTF-8 sequence is cut),
    /// and the string itself comes back when there is nothing to trim: sitemaps trim every URL and date they
    /// read, nearly always clean, and `UTF8View`'s generic index walk showed in their profile.
    func trimmingSpaces() -> String {
        var text = self
        let trimmed = text.withUTF8 { bytes -> String? in
            let kept = bytes.trimmingSpaces()
            if kept.count == bytes.count { return nil }
            return String(decoding: kept, as: UTF8.self)
        }
        return trimmed ?? self
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes without leading and trailing ASCII white space (space, tab, CR, LF, FF), as
    /// `String.trimmingSpaces()` trims.
    func trimmingSpaces() -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = count
        while start < end, self[start].isASCIIWhitespace { start += 1 }
        while end > start, self[end - 1].isASCIIWhitespace { end -= 1 }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }
}

extension String {
    /// The tokens between runs of ASCII white space (space, tab, CR, LF, FF): how HTML splits `rel` and
    /// `class` and RDFa its `property`, `typeof` and `prefix` values. Read byte by byte; splitting on
    /// `Character.isWhitespace` walked grapheme clusters and Unicode properties for every value.
    func splitOnSpaces() -> [Substring] {
        var tokens: [Substring] = []
        let bytes = utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard !bytes[index].isASCIIWhitespace else {
                bytes.formIndex(after: &index)
                continue
            }
            let start = index
            while index < bytes.endIndex, !bytes[index].isASCIIWhitespace { bytes.formIndex(after: &index) }
            tokens.append(self[start..<index])
        }
        return tokens
    }
}

extension UInt8 {
    /// Whether this byte is ASCII white space as the WHATWG Infra standard defines it (tab, LF, FF, CR,
    /// space): what ``Swift/String/trimmingSpaces()`` trims and ``Swift/String/splitOnSpaces()`` splits on.
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D || self == 0x0C }
}
