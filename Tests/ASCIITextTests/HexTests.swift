import ASCIIText
import Testing

@Suite("Hexadecimal digits as ASCII bytes")
struct HexTests {
    /// The definition `Hex.value(of:)` is held to: the sixteen digits in both cases, written out.
    static let digitValues: [UInt8: UInt8] = {
        var values: [UInt8: UInt8] = [:]
        for (value, digit) in "0123456789abcdef".utf8.enumerated() { values[digit] = UInt8(value) }
        for (value, digit) in "0123456789ABCDEF".utf8.enumerated() { values[digit] = UInt8(value) }
        return values
    }()

    @Test("value(of:) reads exactly the 22 ASCII hex digits, of either case", arguments: UInt8.min...UInt8.max)
    func valueOfEveryByte(byte: UInt8) {
        #expect(Hex.value(of: byte) == Self.digitValues[byte])
    }

    @Test("digit writes upper case by default and lower case on request", arguments: UInt8(0)..<16)
    func digitOfEveryNibble(nibble: UInt8) {
        let upper = Hex.digit(nibble)
        let lower = Hex.digit(nibble, lowercase: true)
        #expect(upper == Array("0123456789ABCDEF".utf8)[Int(nibble)])
        #expect(lower == Array("0123456789abcdef".utf8)[Int(nibble)])
        #expect(Hex.value(of: upper) == nibble)
        #expect(Hex.value(of: lower) == nibble)
    }

    @Test("digit ignores the high four bits, so a whole byte can be passed", arguments: UInt8.min...UInt8.max)
    func digitIgnoresHighBits(byte: UInt8) {
        #expect(Hex.digit(byte) == Hex.digit(byte & 0x0F))
        #expect(Hex.digit(byte, lowercase: true) == Hex.digit(byte & 0x0F, lowercase: true))
    }

    @Test("digits of a byte read back as the byte", arguments: UInt8.min...UInt8.max)
    func byteRoundTrip(byte: UInt8) throws {
        let high = try #require(Hex.value(of: Hex.digit(byte >> 4)))
        let low = try #require(Hex.value(of: Hex.digit(byte, lowercase: true)))
        #expect(high << 4 | low == byte)
    }
}
