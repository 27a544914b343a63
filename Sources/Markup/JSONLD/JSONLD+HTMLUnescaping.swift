internal import ASCIIText

extension JSONLD.RepairedText {
    /// Whether the text looks like JSON that went through an HTML escaper: it has an escaped double quote
    /// (`&quot;`, `&#34;`, `&#x22;`), which JSON itself never needs outside a string.
    static func looksEntityEscaped(_ bytes: [UInt8]) -> Bool {
        let quotes = ["&quot;", "&#34;", "&#x22;", "&#X22;"].map { Array($0.utf8) }
        // A plain loop: this runs on every block that failed, so it must stay cheap on a million `&`s.
        var index = 0
        while index < bytes.count {
            if bytes[index] == JSONLD.Byte.ampersand {
                for quote in quotes where matches(quote, in: bytes, at: index, end: bytes.count) { return true }
            }
            index += 1
        }
        return false
    }

    /// The original bytes with HTML entities decoded, then the edge repairs made.
    ///
    /// Decodes `&quot;`, `&amp;`, `&lt;`, `&gt;`, `&apos;` and numeric references (`&#39;`, `&#x27;`); anything else
    /// that starts with `&` is kept as written. Each decoded entity leaves a checkpoint for `originalOffset(_:)`.
    init(decodingEntitiesIn original: [UInt8]) {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(original.count)
        var checkpoints: [(repaired: Int, original: Int)] = [(0, 0)]
        var index = 0
        var count = 0
        while index < original.count {
            if original[index] == JSONLD.Byte.ampersand, let (scalar, length) = Self.entity(in: original, at: index) {
                UTF8.encode(scalar) { decoded.append($0) }
                index += length
                count += 1
                checkpoints.append((decoded.count, index))
            } else {
                decoded.append(original[index])
                index += 1
            }
        }
        self.init(repairing: [])
        bytes = decoded
        self.checkpoints = checkpoints
        record("decoded \(JSONLD.counted(count, "HTML entity", plural: "HTML entities"))")
        repairEdges()
    }

    /// The character of the entity whose `&` is at `start`, and the entity's length in bytes including `&` and `;`.
    static func entity(in bytes: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        // The longest entity decoded here is `&#x10FFFF;` (10 bytes); looking no further keeps the scan linear.
        let limit = min(bytes.count, start + 11)
        guard let semicolon = bytes[(start + 1)..<limit].firstIndex(of: JSONLD.Byte.semicolon) else { return nil }
        let name = bytes[(start + 1)..<semicolon]
        let length = semicolon + 1 - start
        switch String(decoding: name, as: UTF8.self) {
        case "quot": return ("\"", length)
        case "amp": return ("&", length)
        case "lt": return ("<", length)
        case "gt": return (">", length)
        case "apos": return ("'", length)
        default: break
        }
        guard name.first == 0x23 else { return nil }  // '#'
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if let marker = digits.first, marker == 0x78 || marker == 0x58 {  // 'x' or 'X'
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = Hex.value(of: byte), UInt32(digit) < radix else { return nil }
            // At most 8 digits fit before `limit`, so this cannot overflow; anything past U+10FFFF is replaced below.
            value = value &* radix &+ UInt32(digit)
        }
        // As in HTML, a reference to NUL, a surrogate or past U+10FFFF stands for U+FFFD.
        guard value != 0, let scalar = Unicode.Scalar(value) else { return ("\u{FFFD}", length) }
        return (scalar, length)
    }
}
