/// A forward reader over the UTF-8 bytes of a date, shared by the two readers of this module.
///
/// Every read either consumes what it names and succeeds, or consumes nothing and fails, so a reader can
/// try one form after another from the same position.
struct ByteScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the next byte to read.
    private(set) var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        index = 0
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { index == bytes.count }

    /// The next byte, not consumed, or `nil` at the end.
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Exactly `count` ASCII digits as a number, or `nil` (nothing consumed) when fewer follow.
    mutating func digits(_ count: Int) -> Int? {
        guard count <= bytes.count - index else { return nil }
        var value = 0
        for offset in 0..<count {
            let digit = bytes[index + offset] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        index += count
        return value
    }

    /// One or two ASCII digits (as many as follow, up to two) as a number, or `nil` when none follows.
    mutating func oneOrTwoDigits() -> Int? {
        digits(2) ?? digits(1)
    }

    /// Consumes `byte` when it comes next.
    mutating func skip(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// Consumes one of `choices` when it comes next, ASCII letters compared without case when
    /// `ignoringCase`; its position in `choices`, or `nil`.
    mutating func oneOf(_ choices: [StaticString], ignoringCase: Bool) -> (position: Int, exact: Bool)? {
        for (position, choice) in choices.enumerated() where choice.utf8CodeUnitCount <= bytes.count - index {
            var exact = true
            var matches = true
            for offset in 0..<choice.utf8CodeUnitCount {
                let (wanted, found) = (choice.utf8Start[offset], bytes[index + offset])
                if wanted == found { continue }
                // ASCII letters differ in case by bit 0x20 alone.
                guard ignoringCase, wanted | 0x20 == found | 0x20, (0x61...0x7A).contains(wanted | 0x20) else {
                    matches = false
                    break
                }
                exact = false
            }
            if matches {
                index += choice.utf8CodeUnitCount
                return (position, exact)
            }
        }
        return nil
    }

    /// The decimal fraction after a `.` already read: one or more digits, as a value in [0, 1); `nil`
    /// (nothing consumed) when no digit follows.
    mutating func fraction() -> Double? {
        var numerator = 0
        var denominator = 1
        var count = 0
        while let byte = peek, byte &- 0x30 < 10 {
            // Digits past the eighteenth are below any Double's precision at these magnitudes, and would
            // overflow the integer: they are read and dropped.
            if count < 18 {
                numerator = numerator * 10 + Int(byte &- 0x30)
                denominator *= 10
            }
            count += 1
            index += 1
        }
        return count == 0 ? nil : Double(numerator) / Double(denominator)
    }
}

extension StringProtocol {
    /// `body` over this text's UTF-8 bytes, contiguous (copied only when the string is not native).
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}
