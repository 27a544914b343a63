/// A JSON number as written in the document. The parser checks the RFC 8259 grammar only; the
/// conversions say whether the value fits, so a huge number in a member nobody reads is no error.
package struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text, exactly as in the document (`-12.5e3`); always valid JSON number syntax.
    package let literal: String

    /// Creates a number from its text.
    /// - Precondition: `literal` follows the JSON number grammar (the parser guarantees it).
    package init(literal: String) {
        self.literal = literal
    }

    /// The decimal text of `value`.
    package init(_ value: Int) {
        literal = String(value)
    }

    /// The text of `value`: a whole number below 10^15 in magnitude without a fraction (`4`, not
    /// `4.0`), any other as Swift writes the shortest text that reads back as `value` (`4.5`, `1e+20`).
    /// - Precondition: `value` is finite (JSON has no infinities and no NaN).
    package init(_ value: Double) {
        precondition(value.isFinite, "JSON cannot write \(value)")
        literal = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The literal.
    package var description: String { literal }

    /// Whether the literal is an integer: no fraction and no exponent (`-12`, not `12.0` or `1e2`).
    package var isPlainInteger: Bool {
        !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The nearest `Double` (correctly rounded), or `nil` when the number is out of its range: it
    /// overflows to infinity, or it underflows to zero although the literal is not zero (`1e-400`).
    package var doubleValue: Double? {
        guard let value = Double(literal), value.isFinite else { return nil }
        return value == 0 && !isZeroLiteral ? nil : value
    }

    /// The exact value when the number is a whole number in `Int`'s range, however written (`42`,
    /// `42.0`, `4.2e1`); `nil` for a fraction (`4.5`, `4.0000000000000001`) or a number out of range.
    package var integerValue: Int? {
        var parts = DecimalParts(literal)
        return parts.exactInteger()
    }

    /// Whether every digit before the exponent is zero.
    private var isZeroLiteral: Bool {
        for byte in literal.utf8 {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            default: continue
            }
        }
        return true
    }
}

/// A number literal taken apart: sign, significant digits, and the power of ten they are scaled by.
private struct DecimalParts {
    var isNegative = false
    var digits: [UInt8] = []
    var exponent = 0

    init(_ literal: String) {
        var bytes = literal.utf8[...]
        if bytes.first == UInt8(ascii: "-") {
            isNegative = true
            bytes = bytes.dropFirst()
        }
        var seenPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            digits.append(byte - UInt8(ascii: "0"))
            if seenPoint { exponent -= 1 }
        }
        guard !bytes.isEmpty else { return }
        bytes = bytes.dropFirst()
        var exponentIsNegative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            exponentIsNegative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        // Saturate: any exponent beyond a few thousand already decides the outcome.
        var written = 0
        for byte in bytes { written = min(written * 10 + Int(byte - UInt8(ascii: "0")), 100_000) }
        exponent += exponentIsNegative ? -written : written
    }

    /// The value as an `Int` when it is whole and fits.
    mutating func exactInteger() -> Int? {
        while let last = digits.last, last == 0, exponent < 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.allSatisfy({ $0 == 0 }) { return 0 }
        guard exponent >= 0, exponent <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits + Array(repeating: 0, count: exponent) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
        }
        if isNegative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }
}
