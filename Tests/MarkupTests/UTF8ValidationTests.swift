import FixtureServer
import Testing

@testable import Markup

/// `UTF8Validation.isValid`: the same verdict as the standard library's `String(validating:)`, for every
/// scalar, every pair of bytes and random byte strings, wherever the bytes fall against the eight-byte words
/// of ASCII it skips.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    /// `String(validating:)`, the reference.
    private static func reference(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    private static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
    }

    @Test("Every scalar is valid, alone and after ASCII of every length up to a word and more")
    func everyScalar() {
        var rejected: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let encoded = Array(String(scalar).utf8)
            let padding = Int(value % 11)
            let bytes = Array(repeating: UInt8(ascii: "a"), count: padding) + encoded + [UInt8(ascii: "z")]
            if !Self.isValid(encoded) || !Self.isValid(bytes) { rejected.append(value) }
        }
        #expect(rejected.isEmpty, "valid scalars rejected: \(rejected.prefix(10).map { String($0, radix: 16) })")
    }

    @Test("Every pair of bytes, and every pair cut into ASCII on both sides: the standard library's verdict")
    func everyPair() {
        var disagreements: [[UInt8]] = []
        for first in UInt8.min...UInt8.max {
            for second in UInt8.min...UInt8.max {
                let pair = [first, second]
                let framed = Array("01234567".utf8) + pair + Array("89".utf8)
                for bytes in [pair, framed] where Self.isValid(bytes) != Self.reference(bytes) {
                    disagreements.append(bytes)
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test(
        "Ill-formed sequences the table of well-formed ones excludes",
        arguments: [
            [0xC0, 0xAF],  // overlong "/"
            [0xE0, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
            [0xF5, 0x80, 0x80, 0x80],  // no such lead byte
            [0xE2, 0x82],  // cut short at the end
            [0xE2, 0x82, 0x41],  // cut short by ASCII
            [0x80],  // a lone continuation byte
            [0xC3, 0xA9, 0xA9],  // one continuation byte too many
        ] as [[UInt8]])
    func illFormed(sequence: [UInt8]) {
        let inText = Array("The café on the corner ".utf8) + sequence + Array(" is open".utf8)
        #expect(!Self.isValid(sequence))
        #expect(!Self.isValid(inText))
        #expect(Self.reference(inText) == false)
    }

    @Test("Random bytes, mostly ASCII with runs of high bytes: the standard library's verdict")
    func randomAgainstReference() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array("<p>".utf8), Array("plain text ".utf8), Array("é".utf8), Array("—".utf8), Array("中文".utf8),
            Array("😀".utf8), [0x80], [0xC3], [0xE2, 0x80], [0xF0, 0x9F], [0xFF], [0xED, 0xA0, 0x80],
        ]
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                bytes += pieces.randomElement(using: &generator)!
            }
            if Int.random(in: 0..<4, using: &generator) == 0, !bytes.isEmpty {
                bytes[Int.random(in: bytes.indices, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let verdict = Self.isValid(bytes)
            #expect(verdict == Self.reference(bytes), "\(bytes)")
            if verdict != Self.reference(bytes) { return }
            let string = UTF8Validation.string(bytes)
            #expect(Array(string.utf8) == Array(String(decoding: bytes, as: UTF8.self).utf8), "\(bytes)")
        }
    }

    @Test(
        "A string of bytes: the same as String(decoding:as:), well-formed or repaired",
        arguments: [
            [], Array("plain ASCII, longer than one word".utf8), Array("café — 中文 😀".utf8),
            Array("The café ".utf8) + [0xED, 0xA0, 0x80] + Array(" is open".utf8), [0xE2, 0x82], [0x80, 0x41],
        ] as [[UInt8]])
    func string(bytes: [UInt8]) {
        let string = UTF8Validation.string(bytes)
        let reference = String(decoding: bytes, as: UTF8.self)
        #expect(string == reference)
        #expect(Array(string.utf8) == Array(reference.utf8))
        #expect(string.count == reference.count)
    }

    @Test("An empty buffer is valid")
    func empty() {
        #expect(Self.isValid([]))
        #expect(UTF8Validation.isValid(ArraySlice<UInt8>()))
    }
}
