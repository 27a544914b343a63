/// The classes of RFC 3986 §2 over single bytes: which characters a URI may hold as they are.
///
/// Every non-ASCII byte is outside all three classes: a URI carries such bytes only as percent escapes.
package enum URICharacter {
    /// RFC 3986 §2.3 `unreserved`: `ALPHA / DIGIT / "-" / "." / "_" / "~"`. An escape of one of these means
    /// the character itself (§6.2.2.2), so normalizers decode it.
    @inlinable
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// RFC 3986 §2.2 `reserved`: the gen-delims `: / ? # [ ] @` and the sub-delims `! $ & ' ( ) * + , ; =`.
    /// Escaping or unescaping one of these can change what a URI means, so normalizers keep them as written.
    @inlinable
    package static func isReserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    /// Whether `byte` may stand in a URI as itself: unreserved or reserved. The bytes left out are the
    /// non-ASCII ones, the controls, space, DEL, `"` `<` `>` `\` `^` `` ` `` `{` `|` `}`, and `%`, which a
    /// URI holds only as the start of an escape.
    @inlinable
    package static func isAllowed(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isReserved(byte)
    }
}
