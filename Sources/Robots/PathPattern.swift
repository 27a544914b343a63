/// RFC 9309 path patterns: `*` matches any sequence, a final `$` anchors the end; both patterns
/// and paths are compared after the same percent-encoding normalization.
enum PathPattern {
    /// Percent-encodes bytes outside ASCII (and controls, space) and upper-cases existing `%xx`
    /// escapes, so `/ä`, `/%c3%a4` and `/%C3%A4` compare equal (RFC 9309 §2.2.2).
    static func normalize(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result = ""
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                result += "%" + String(decoding: [upper(bytes[index + 1]), upper(bytes[index + 2])], as: UTF8.self)
                index += 3
                continue
            }
            if byte >= 0x80 || byte <= 0x20 || byte == 0x7F {
                result += "%" + hex(byte >> 4) + hex(byte & 0x0F)
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
            index += 1
        }
        return result
    }

    /// Whether `pattern` matches the start of `path` (Google's robotstxt matcher: a set of
    /// candidate positions advanced per pattern byte, O(pattern × path)).
    static func matches(_ path: [UInt8], _ pattern: [UInt8]) -> Bool {
        var positions = [0]
        for (offset, byte) in pattern.enumerated() {
            if byte == UInt8(ascii: "$") && offset == pattern.count - 1 {
                return positions.last == path.count
            }
            if byte == UInt8(ascii: "*") {
                guard let first = positions.first else { return false }
                positions = Array(first...path.count)
                continue
            }
            var next: [Int] = []
            next.reserveCapacity(positions.count)
            for position in positions where position < path.count && path[position] == byte {
                next.append(position + 1)
            }
            guard !next.isEmpty else { return false }
            positions = next
        }
        return true
    }

    /// The path and query of a URL, `/` when empty; a path given alone is used as is.
    static func pathAndQuery(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = rest[slash...]
            } else {
                rest = ""
            }
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if rest.isEmpty { return "/" }
        if rest.first == "?" { rest = "/" + rest }
        // The URL is taken as the crawler will request it, already percent-encoded: only
        // patterns are normalized (so `/ツ` in a file matches a request for `/%E3%83%84`, while a
        // raw `ツ` in a URL is not what a crawler sends and matches nothing encoded).
        return String(rest)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        (97...102).contains(byte) ? byte - 32 : byte
    }

    private static func hex(_ nibble: UInt8) -> String {
        String(nibble, radix: 16, uppercase: true)
    }
}
