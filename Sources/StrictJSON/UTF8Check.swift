/// Well-formed UTF-8 as the Unicode Standard defines it (table 3-7): no overlong forms, no
/// surrogates, nothing above U+10FFFF.
enum UTF8Check {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The range of the second byte, and how many bytes follow the lead.
            let second: ClosedRange<UInt8>
            let trailing: Int
            switch lead {
            case 0xC2...0xDF: (second, trailing) = (0x80...0xBF, 1)
            case 0xE0: (second, trailing) = (0xA0...0xBF, 2)
            case 0xE1...0xEC, 0xEE...0xEF: (second, trailing) = (0x80...0xBF, 2)
            case 0xED: (second, trailing) = (0x80...0x9F, 2)
            case 0xF0: (second, trailing) = (0x90...0xBF, 3)
            case 0xF1...0xF3: (second, trailing) = (0x80...0xBF, 3)
            case 0xF4: (second, trailing) = (0x80...0x8F, 3)
            default: return false
            }
            guard count - index > trailing, second.contains(bytes[index + 1]) else { return false }
            for offset in stride(from: 2, through: trailing, by: 1) where bytes[index + offset] & 0xC0 != 0x80 {
                return false
            }
            index += trailing + 1
        }
        return true
    }
}
