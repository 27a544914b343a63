internal import ASCIIText

/// The WHATWG URL percent-encode sets (https://url.spec.whatwg.org/#percent-encoded-bytes) and the
/// helpers that apply them to one code point at a time, as the parser consumes its input.
enum PercentEncodeSet {
    case c0Control, fragment, query, specialQuery, path, userinfo

    /// Whether the ASCII byte `byte` is in this set; non-ASCII bytes are always encoded.
    func contains(_ byte: UInt8) -> Bool {
        if byte < 0x20 || byte > 0x7E { return true }
        switch self {
        case .c0Control: return false
        case .fragment: return Self.fragmentExtra.contains(byte)
        case .query: return Self.queryExtra.contains(byte)
        case .specialQuery: return Self.queryExtra.contains(byte) || byte == UInt8(ascii: "'")
        case .path: return Self.queryExtra.contains(byte) || Self.pathExtra.contains(byte)
        case .userinfo:
            return Self.queryExtra.contains(byte) || Self.pathExtra.contains(byte) || Self.userinfoExtra.contains(byte)
        }
    }

    private static let fragmentExtra: Set<UInt8> = Set(" \"<>`".utf8)
    private static let queryExtra: Set<UInt8> = Set(" \"#<>".utf8)
    private static let pathExtra: Set<UInt8> = Set("?^`{}".utf8)
    private static let userinfoExtra: Set<UInt8> = Set("/:;=@[\\]^|".utf8)
}

/// The WHATWG side of percent-encoding, over `String`s as the parser builds them; the bytes and escapes
/// themselves are ASCIIText's ``PercentEscape``.
enum PercentEncoding {
    /// Appends `scalar` to `output`, UTF-8 percent-encoded where its bytes are in `set`.
    static func append(_ scalar: Unicode.Scalar, to output: inout String, encoding set: PercentEncodeSet) {
        if scalar.isASCII, !set.contains(UInt8(scalar.value)) {
            output.unicodeScalars.append(scalar)
            return
        }
        for byte in String(scalar).utf8 {
            if set.contains(byte) {
                appendEscape(byte, to: &output)
            } else {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
    }

    /// `string` with every code point percent-encoded per `set`.
    static func encode(_ string: String, _ set: PercentEncodeSet) -> String {
        var output = ""
        for scalar in string.unicodeScalars { append(scalar, to: &output, encoding: set) }
        return output
    }

    /// Appends `%XX` (upper-case hex) for `byte`.
    static func appendEscape(_ byte: UInt8, to output: inout String) {
        output.unicodeScalars.append("%")
        output.unicodeScalars.append(Unicode.Scalar(Hex.digit(byte >> 4)))
        output.unicodeScalars.append(Unicode.Scalar(Hex.digit(byte)))
    }

    /// Percent-decodes `string` to bytes (https://url.spec.whatwg.org/#percent-decode): a `%` not followed by
    /// two hex digits is kept as it is.
    static func decode(_ string: String) -> [UInt8] {
        PercentEscape.decoded(Array(string.utf8))
    }
}

extension String {
    /// Appends `scalar`, UTF-8 percent-encoded where its bytes are in `set`.
    mutating func appendPercentEncoded(_ scalar: Unicode.Scalar, _ set: PercentEncodeSet) {
        PercentEncoding.append(scalar, to: &self, encoding: set)
    }
}
