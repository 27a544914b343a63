internal import ASCIIText

/// IPv4 and IPv6 addresses as text: host parsing and serialization as the WHATWG URL Standard defines them
/// (https://url.spec.whatwg.org/#concept-ipv4-parser, #concept-ipv6-parser). The serialization is also the
/// fetcher's (`Fetching.IPAddress`): dotted decimal, and lower-case hex pieces with the first longest run of
/// two or more zero pieces written as `::`, which is RFC 5952's canonical form too.
package enum IPAddressText {
    /// Whether `domain`'s last label is a number, so the host must parse as IPv4
    /// (https://url.spec.whatwg.org/#ends-in-a-number-checker).
    static func endsInANumber(_ domain: String) -> Bool {
        var parts = domain.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true {
            if parts.count == 1 { return false }
            parts.removeLast()
        }
        guard let last = parts.last, !last.isEmpty else { return false }
        if last.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        return parseNumber(Substring(last)) != nil
    }

    /// The IPv4 parser: one to four dot-separated numbers (decimal, `0x` hex or `0` octal).
    static func parseIPv4(_ input: String) -> UInt32? {
        var parts = input.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = parseNumber(part) else { return nil }
            numbers.append(number)
        }
        guard let last = numbers.last else { return nil }
        if numbers.dropLast().contains(where: { $0 > 255 }) { return nil }
        guard last < UInt64(1) << (8 * UInt64(5 - numbers.count)) else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * UInt64(3 - index))
        }
        return UInt32(truncatingIfNeeded: address)
    }

    /// The IPv4 number parser; values saturate above 2^40 (already too large for any part).
    static func parseNumber(_ part: Substring) -> UInt64? {
        var digits = part.utf8[...]
        guard !digits.isEmpty else { return nil }
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
            digits.dropFirst().first == UInt8(ascii: "x") || digits.dropFirst().first == UInt8(ascii: "X")
        {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = Hex.value(of: byte), UInt64(digit) < radix else { return nil }
            value = min(value * radix + UInt64(digit), 1 << 40)
        }
        return value
    }

    /// Dotted decimal.
    package static func serializeIPv4(_ address: UInt32) -> String {
        (0..<4).map { String((address >> (8 * (3 - UInt32($0)))) & 0xFF) }.joined(separator: ".")
    }
}
