internal import URLCanonical

/// Host names in the one form scope decisions and frontier keys compare: lowercase ASCII, with
/// international labels as punycode A-labels (`xn--…`, URLCanonical's IDNA), no trailing dot, IPv6
/// literals in brackets.
enum HostName {
    /// The longest DNS name in its text form (RFC 1035 section 2.3.4, less the trailing dot).
    static let maximumLength = 253
    /// The longest DNS label.
    static let maximumLabelLength = 63

    /// The normalized form of `host`, or `nil` when it cannot be a host name.
    ///
    /// - `[…]` IPv6 literals are lowercased and otherwise kept.
    /// - ASCII is lowercased; labels with other characters go through URLCanonical's IDNA (lowercase,
    ///   NFKC, the full stops UTS #46 maps to `.`) and become `xn--` A-labels.
    /// - One trailing dot is removed (`example.com.` and `example.com` are keyed alike).
    /// - Every label must be 1–63 bytes of `a-z 0-9 - _`, the whole at most 253 bytes.
    static func normalize(_ host: String) -> String? {
        if host.hasPrefix("[") { return normalizeIPv6Literal(host) }
        // Bound the work before mapping: no valid name is longer than 4 UTF-8 bytes per ASCII byte.
        guard !host.isEmpty, host.utf8.count <= 4 * (maximumLength + 1), var ascii = IDNA.toASCII(host) else {
            return nil
        }
        if ascii.hasSuffix(".") { ascii.removeLast() }
        guard !ascii.isEmpty, ascii.utf8.count <= maximumLength else { return nil }
        for label in ascii.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.count <= maximumLabelLength, label.allSatisfy(isHostByte) else {
                return nil
            }
        }
        return ascii
    }

    /// Whether `host` (normalized) is an IP address literal: bracketed IPv6, or a name whose last
    /// label is numeric, which the URL standard reads as IPv4 (and writes as a dotted quad).
    static func isAddressLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") { return true }
        // The last non-empty label (trailing dots skipped), read in place.
        let dot = UInt8(ascii: ".")
        var bytes = host.utf8[...]
        while bytes.last == dot { bytes.removeLast() }
        let last = bytes.lastIndex(of: dot).map { bytes[bytes.index(after: $0)...] } ?? bytes
        return !last.isEmpty && last.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Letters, digits, `-` and `_` (not valid in DNS host names, but served on the web).
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// `[` hex digits, `:` and `.` (an embedded IPv4 tail) `]`, lowercased.
    private static func normalizeIPv6Literal(_ host: String) -> String? {
        let inner = host.utf8.dropFirst()
        // "[" + at most 45 characters (the longest textual IPv6 address) + "]".
        guard inner.last == UInt8(ascii: "]"), host.utf8.count >= 4, host.utf8.count <= 47 else { return nil }
        let valid = inner.dropLast().allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: ":"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
        return valid ? host.lowercased() : nil
    }
}
