/// Percent escapes (RFC 3986 §2.1): `%` followed by two hexadecimal digits of either case stands for the byte
/// they spell. This is the one reader and writer of escapes; the normalizers the modules compare URLs with
/// are ``normalized(_:escapes:keeping:)`` with their own rules.
package enum PercentEscape {
    /// The byte the escape starting at `index` stands for, or `nil` when no valid escape starts there: the
    /// byte at `index` is not `%`, or fewer than two bytes follow it, or either of them is not a hex digit
    /// (`%G1`, `%4` at the end, a lone `%`).
    @inlinable
    package static func byte(in bytes: [UInt8], at index: Int) -> UInt8? {
        guard index >= 0, index + 2 < bytes.count, bytes[index] == UInt8(ascii: "%"),
            let high = Hex.value(of: bytes[index + 1]), let low = Hex.value(of: bytes[index + 2])
        else { return nil }
        return high << 4 | low
    }

    /// Appends the escape of `byte`, `%XX` with upper-case hex (RFC 3986 §2.1: "should use uppercase").
    @inlinable
    package static func append(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(Hex.digit(byte >> 4))
        output.append(Hex.digit(byte))
    }

    /// `bytes` with every byte that `keeping` refuses written as an escape, and the others as they are.
    ///
    /// A `%` is a byte like any other here: pass a rule that refuses it for the output to decode back to
    /// `bytes` (``decoded(_:)`` of the result is then `bytes`).
    @inlinable
    package static func encoded(_ bytes: some Sequence<UInt8>, keeping keeps: (UInt8) -> Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if keeps(byte) { output.append(byte) } else { append(byte, to: &output) }
        }
        return output
    }

    /// `bytes` percent-decoded, leniently, as the WHATWG URL Standard decodes
    /// (https://url.spec.whatwg.org/#percent-decode): every valid escape becomes its byte, and a `%` that
    /// starts no valid escape is kept as it is, with whatever follows it.
    @inlinable
    package static func decoded(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if let decoded = byte(in: bytes, at: index) {
                output.append(decoded)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// `bytes` percent-decoded, strictly: `nil` as soon as a `%` starts no valid escape (`%G1`, `%4` at the
    /// end, a `%` at the end), for text where such a `%` is a mistake to report rather than a character.
    /// The decoded bytes are not checked any further (they may be any byte, including NUL or invalid UTF-8).
    @inlinable
    package static func strictlyDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "%") {
                output.append(bytes[index])
                index += 1
            } else if let decoded = byte(in: bytes, at: index) {
                output.append(decoded)
                index += 3
            } else {
                return nil
            }
        }
        return output
    }
}
