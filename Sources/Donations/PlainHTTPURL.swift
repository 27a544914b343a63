/// A fast, conservative recogniser of the URLs donation files usually carry
/// (`https://example.com/recipes/42?x=1#top`), for which Foundation's `URLComponents` certainly
/// finds an `http`/`https` scheme and a non-empty host. Anything unusual answers `false` and goes
/// through `URLComponents` as before, so the answer of the validation never changes.
enum PlainHTTPURL {
    /// `http://` or `https://` (any case), a host of letters, digits, dots and hyphens, an optional
    /// numeric port, then only RFC 3986 characters (unreserved, sub-delimiters, `:@/?`, valid
    /// percent escapes) with at most one `#`.
    static func matches(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { matches($0) } ?? false
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var index = schemeLength(bytes) else { return false }
        let hostStart = index
        while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
        guard index > hostStart else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            var port = 0
            let portStart = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10, index - portStart < 5 {
                port = port * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            guard index > portStart, port <= 65535 else { return false }
        }
        if index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"),
            bytes[index] != UInt8(ascii: "#")
        {
            return false
        }
        var seenHash = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard bytes.count - index > 2, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else {
                    return false
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !seenHash else { return false }
                seenHash = true
            } else if !isPathByte(byte) {
                return false
            }
            index += 1
        }
        return true
    }

    /// The length of `http://` or `https://` (letters in any case) opening `bytes`.
    private static func schemeLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        func letter(_ index: Int, _ lower: Character) -> Bool {
            index < bytes.count && bytes[index] | 0x20 == lower.asciiValue ?? 0 && bytes[index] >= UInt8(ascii: "A")
        }
        guard letter(0, "h"), letter(1, "t"), letter(2, "t"), letter(3, "p") else { return nil }
        let slashes = letter(4, "s") ? 5 : 4
        guard bytes.count > slashes + 2, bytes[slashes] == UInt8(ascii: ":"), bytes[slashes + 1] == UInt8(ascii: "/"),
            bytes[slashes + 2] == UInt8(ascii: "/")
        else { return nil }
        return slashes + 3
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        byte.isAlphanumeric || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        if byte.isAlphanumeric { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}

extension UInt8 {
    fileprivate var isAlphanumeric: Bool {
        self &- UInt8(ascii: "0") < 10 || (self | 0x20) &- UInt8(ascii: "a") < 26
    }

    fileprivate var isHexDigit: Bool {
        self &- UInt8(ascii: "0") < 10 || (self | 0x20) &- UInt8(ascii: "a") < 6
    }
}
