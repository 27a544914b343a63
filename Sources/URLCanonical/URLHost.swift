/// A parsed host (https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)).
enum URLHost: Sendable, Hashable {
    /// An ASCII domain (already through IDNA, lower-case).
    case domain(String)
    case ipv4(UInt32)
    case ipv6([UInt16])
    /// The host of a non-special URL, percent-encoded but otherwise kept.
    case opaque(String)
    /// The empty host (`file:///`, `sc://`).
    case empty

    var serialized: String {
        switch self {
        case .domain(let name), .opaque(let name): return name
        case .ipv4(let address): return IPAddressText.serializeIPv4(address)
        case .ipv6(let pieces): return "[" + IPAddressText.serializeIPv6(pieces) + "]"
        case .empty: return ""
        }
    }

    /// Code points never allowed in a host (https://url.spec.whatwg.org/#forbidden-host-code-point).
    static func isForbiddenHostCodePoint(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\0", "\t", "\n", "\r", " ", "#", "/", ":", "<", ">", "?", "@", "[", "\\", "]", "^", "|": return true
        default: return false
        }
    }

    /// Forbidden host code points plus C0 controls, `%` and DEL.
    static func isForbiddenDomainCodePoint(_ scalar: Unicode.Scalar) -> Bool {
        isForbiddenHostCodePoint(scalar) || scalar.value <= 0x1F || scalar == "%" || scalar.value == 0x7F
    }

    /// The host parser (https://url.spec.whatwg.org/#concept-host-parser); `nil` on failure.
    static func parse(_ input: String, isOpaque: Bool) -> URLHost? {
        if input.hasPrefix("[") {
            guard input.hasSuffix("]"), input.count >= 2 else { return nil }
            let inner = Array(input.unicodeScalars.dropFirst().dropLast())
            return IPAddressText.parseIPv6(inner).map(URLHost.ipv6)
        }
        if isOpaque {
            if input.unicodeScalars.contains(where: isForbiddenHostCodePoint) { return nil }
            return input.isEmpty ? .empty : .opaque(PercentEncoding.encode(input, .c0Control))
        }
        let domain = String(decoding: PercentEncoding.decode(input), as: UTF8.self)
        guard let ascii = IDNA.toASCII(domain), !ascii.isEmpty else { return nil }
        if ascii.unicodeScalars.contains(where: isForbiddenDomainCodePoint) { return nil }
        if IPAddressText.endsInANumber(ascii) {
            return IPAddressText.parseIPv4(ascii).map(URLHost.ipv4)
        }
        return .domain(ascii)
    }
}
