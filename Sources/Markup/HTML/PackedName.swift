/// An element name of at most 16 bytes, packed into two words: a table key made once per element when
/// the document is built, looked up without making a string or hashing one. Names hold no NUL byte, so
/// the zero padding keeps two names apart. Longer names (custom elements such as `<my-product-gallery>`) have none; no
/// element the extractor looks up by name is that long.
struct PackedName: Hashable {
    private let low: UInt64
    private let high: UInt64

    /// The longest name that packs.
    static let maxLength = 16

    /// The two words mixed into one (multiplicative hashing), whose top bits pick a slot in a small
    /// open-addressed table.
    var mixed: UInt64 { low &* 0x9E37_79B9_7F4A_7C15 ^ high &* 0xC2B2_AE3D_27D4_EB4F }

    /// `bytes` packed; `nil` when longer than ``maxLength``.
    init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count <= Self.maxLength else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (index, byte) in bytes.enumerated() {
            if index < 8 {
                words.0 |= UInt64(byte) << (8 * index)
            } else {
                words.1 |= UInt64(byte) << (8 * (index - 8))
            }
        }
        (low, high) = words
    }
}
