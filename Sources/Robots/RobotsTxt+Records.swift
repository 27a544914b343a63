extension RobotsTxt {
    /// The record keys the parser reads; other keys are ignored.
    enum RecordKey: Equatable {
        case userAgent, allow, disallow, crawlDelay, sitemap

        /// The key named by `text` (already trimmed), case-insensitively; the misspellings of
        /// `disallow` that Google's parser accepts count as `disallow`, so a site tested against
        /// Googlebot reads the same here.
        init?(_ text: some StringProtocol) {
            switch text.lowercased() {
            case "user-agent": self = .userAgent
            case "allow": self = .allow
            case "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw": self = .disallow
            case "crawl-delay": self = .crawlDelay
            case "sitemap": self = .sitemap
            default: return nil
            }
        }
    }

    /// Lines split at LF, CR or CRLF.
    static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                result.append(bytes[start..<min(index, start + maxLineBytes)])
                if byte == 0x0D, index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A { index += 1 }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.endIndex { result.append(bytes[start..<min(bytes.endIndex, start + maxLineBytes)]) }
        return result
    }

    /// The known key and the value of a `key: value` line, the comment removed and both trimmed;
    /// `nil` for any other line.
    static func record(_ line: ArraySlice<UInt8>) -> (RecordKey, String)? {
        var line = line
        if let hash = line.firstIndex(of: UInt8(ascii: "#")) { line = line[line.startIndex..<hash] }
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let key = String(decoding: line[line.startIndex..<colon], as: UTF8.self).trimmed()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmed()
            return RecordKey(key).map { ($0, value) }
        }
        // A missing colon is a common mistake ("disallow /"); like Google's parser, accept a known
        // key followed by white space and a value.
        let text = String(decoding: line, as: UTF8.self).trimmed()
        guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }), let key = RecordKey(text[..<space])
        else { return nil }
        let value = String(text[space...]).trimmed()
        return value.isEmpty ? nil : (key, value)
    }
}
