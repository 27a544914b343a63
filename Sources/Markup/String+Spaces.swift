extension String {
    /// The string without leading and trailing ASCII white space (space, tab, CR, LF, FF).
    ///
    /// Read byte by byte (the five are ASCII, so no UTF-8 sequence is cut), and the string itself comes back
    /// when there is nothing to trim: sitemaps trim every URL and date they read, nearly always clean.
    func trimmingSpaces() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        let bytes = utf8
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
            let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if start == bytes.startIndex, bytes.index(after: end) == bytes.endIndex { return self }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }
}
