/// Percent-escape normalization for paths and queries (RFC 3986 section 6.2.2), so that URLs
/// differing only in escaping share one frontier key.
enum URLEscaping {
    /// `text` with its escapes in one form:
    ///
    /// - `%` + two hex digits naming an unreserved character (`A–Z a–z 0–9 - . _ ~`) becomes that
    ///   character; any other such escape keeps its byte with uppercase hex (`%2f` → `%2F`).
    /// - A `%` not followed by two hex digits is itself escaped (`%25`).
    /// - Bytes RFC 3986 does not allow in a URI (non-ASCII, controls, space, the backquote and
    ///   `" < > \ ^ { | }`) are escaped as their UTF-8 bytes; reserved characters
    ///   (`: / ? # [ ] @ ! $ & ' ( ) * + , ; =`) are kept as they are, since escaping or unescaping
    ///   them can change the meaning.
    static func normalize(_ text: some StringProtocol) -> String {
        if isNormalized(text) { return String(text) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if let decoded = escapedByte(in: bytes, at: index) {
                    if isUnreserved(decoded) {
                        output.append(decoded)
                    } else {
                        appendEscape(decoded, to: &output)
                    }
                    index += 3
                } else {
                    appendEscape(byte, to: &output)
                    index += 1
                }
                continue
            }
            if isUnreserved(byte) || isReserved(byte) {
                output.append(byte)
            } else {
                appendEscape(byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether ``normalize(_:)`` would give `text` back unchanged because it holds no `%` and only
    /// unreserved and reserved characters (most URLs).
    static func isNormalized(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { isUnreserved($0) || isReserved($0) }
    }

    /// The byte `%XX` at `index` stands for, or `nil` when two hex digits do not follow.
    private static func escapedByte(in bytes: [UInt8], at index: Int) -> UInt8? {
        guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
        else { return nil }
        return high << 4 | low
    }

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigit(byte >> 4))
        output.append(hexDigit(byte & 0x0F))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// RFC 3986 unreserved: `ALPHA DIGIT - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986 gen-delims and sub-delims.
    private static func isReserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
