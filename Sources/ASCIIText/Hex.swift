/// Hexadecimal digits as ASCII bytes: the one reading and the one writing of a digit for every escape the
/// program handles (`%XX` in URLs, `\uXXXX` in JSON, `&#xXX;` in HTML, hex settings in the store).
package enum Hex {
    /// The value, 0 to 15, of the ASCII hexadecimal digit `byte` of either case (`0–9`, `a–f`, `A–F`); `nil`
    /// for every other byte, including digits of other scripts and non-ASCII bytes.
    @inlinable
    package static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }

    /// The ASCII digit of the low four bits of `nibble` (higher bits are ignored, so `byte >> 4` and
    /// `byte & 0x0F` can be passed as they are): upper case (`0–9`, `A–F`) unless `lowercase`.
    ///
    /// Upper case is what RFC 3986 §2.1 asks of percent escapes; lower case is what JSON writers and hash
    /// digests conventionally use.
    @inlinable
    package static func digit(_ nibble: UInt8, lowercase: Bool = false) -> UInt8 {
        let value = nibble & 0x0F
        if value < 10 { return UInt8(ascii: "0") &+ value }
        return (lowercase ? UInt8(ascii: "a") : UInt8(ascii: "A")) &+ value &- 10
    }
}
