extension CharsetDecoder {
    /// Decodes `bytes` (already without a BOM) with `encoding` into a `DecodedText`.
    ///
    /// UTF-8, UTF-16, windows-1252, x-user-defined and replacement are decoded here in Swift; every other
    /// encoding goes through glibc's iconv. If glibc cannot open a converter (a system without gconv modules),
    /// the page is decoded as windows-1252 instead, which keeps its ASCII markup, and `encoding` says so.
    static func convert(
        _ bytes: ArraySlice<UInt8>,
        from encoding: TextEncoding,
        source: DecodedText.Source,
        isLateDeclaration: Bool = false
    ) -> DecodedText {
        var used = encoding
        let (utf8, hadInvalidBytes): ([UInt8], Bool)
        switch encoding {
        case .utf8: (utf8, hadInvalidBytes) = decodeUTF8(bytes)
        case .replacement:
            // Encoding §14.1: the replacement decoder emits one U+FFFD for any input, then nothing.
            (utf8, hadInvalidBytes) = bytes.isEmpty ? ([], false) : (Self.replacementCharacter, true)
        default:
            (utf8, hadInvalidBytes) = bytes.withUnsafeBufferPointer { buffer -> ([UInt8], Bool) in
                switch encoding {
                case .utf16LE: return decodeUTF16(buffer, bigEndian: false)
                case .utf16BE: return decodeUTF16(buffer, bigEndian: true)
                case .windows1252: return (SingleByteTable.windows1252.decode(buffer), false)
                case .xUserDefined: return (SingleByteTable.xUserDefined.decode(buffer), false)
                default:
                    if let iconvName = encoding.iconvName, let result = Iconv.decode(buffer, from: iconvName) {
                        // iconv writes UTF-8 of what it decoded; checked all the same, as the text goes to libxml2.
                        let (checked, repaired) = decodeUTF8(result.utf8[...])
                        return (checked, result.hadInvalidBytes || repaired)
                    }
                    used = .windows1252
                    return (SingleByteTable.windows1252.decode(buffer), false)
                }
            }
        }
        return DecodedText(
            utf8: utf8,
            encoding: used,
            source: source,
            hadInvalidBytes: hadInvalidBytes,
            isLateDeclaration: isLateDeclaration
        )
    }

    /// UTF-8 for U+FFFD REPLACEMENT CHARACTER.
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// UTF-8: validated once, and then the bytes themselves; on failure each maximal invalid subsequence becomes
    /// one U+FFFD, which is what the Encoding Standard's UTF-8 decoder does too (Encoding §8.1.1).
    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> ([UInt8], Bool) {
        if UTF8Validation.isValid(bytes) {
            return (Array(bytes), false)
        }
        return (Array(String(decoding: bytes, as: UTF8.self).utf8), true)
    }

    /// UTF-16 in the given byte order: unpaired surrogates and a dangling odd byte become U+FFFD (Encoding §9.1).
    private static func decodeUTF16(_ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool) -> ([UInt8], Bool) {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 + 1)
        var hadInvalidBytes = false
        var pendingHigh = false
        for index in stride(from: 0, to: bytes.count - 1, by: 2) {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            let unit = bigEndian ? first << 8 | second : second << 8 | first
            let isHigh = (0xD800...0xDBFF).contains(unit)
            let isLow = (0xDC00...0xDFFF).contains(unit)
            // A high surrogate must be followed by a low one, and a low one must follow a high one.
            if (pendingHigh && !isLow) || (!pendingHigh && isLow) { hadInvalidBytes = true }
            pendingHigh = isHigh
            units.append(unit)
        }
        if pendingHigh { hadInvalidBytes = true }
        if bytes.count % 2 == 1 {
            hadInvalidBytes = true
            units.append(0xFFFD)
        }
        return (Array(String(decoding: units, as: UTF16.self).utf8), hadInvalidBytes)
    }
}

/// A single-byte encoding decoded in Swift through a 128-entry table for bytes 0x80–0xFF.
struct SingleByteTable: Sendable {
    /// The code point of each byte from 0x80 to 0xFF.
    let upperHalf: [UInt32]

    /// windows-1252 (https://encoding.spec.whatwg.org/index-windows-1252.txt): Latin-1 except 0x80–0x9F, which
    /// hold the Windows punctuation ("€", "‚", "“", "”", "–", "—", "™", …). The five bytes Windows leaves
    /// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 controls of the same value, so no byte is invalid.
    static let windows1252 = SingleByteTable(
        upperHalf: [
            0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
            0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
            0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
            0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
        ] + (0xA0...0xFF).map { UInt32($0) }
    )

    /// x-user-defined (Encoding §14.4): bytes 0x80–0xFF map to U+F780–U+F7FF.
    static let xUserDefined = SingleByteTable(upperHalf: (0...0x7F).map { 0xF780 + UInt32($0) })

    /// Decodes every byte to UTF-8; ASCII stays ASCII. Measures the UTF-8 length first so the result is written
    /// once, in place, with no intermediate buffer (a 10 MiB page costs its text and nothing more).
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let lengths = upperHalf.map { $0 < 0x800 ? 2 : 3 }
        var utf8Count = 0
        for byte in bytes {
            utf8Count += byte < 0x80 ? 1 : lengths[Int(byte) - 0x80]
        }
        return [UInt8](unsafeUninitializedCapacity: utf8Count) { output, initialized in
            var written = 0
            for byte in bytes {
                if byte < 0x80 {
                    output[written] = byte
                    written += 1
                    continue
                }
                let scalar = upperHalf[Int(byte) - 0x80]
                if scalar < 0x800 {
                    output[written] = UInt8(0xC0 | scalar >> 6)
                    output[written + 1] = UInt8(0x80 | scalar & 0x3F)
                    written += 2
                } else {
                    output[written] = UInt8(0xE0 | scalar >> 12)
                    output[written + 1] = UInt8(0x80 | (scalar >> 6) & 0x3F)
                    output[written + 2] = UInt8(0x80 | scalar & 0x3F)
                    written += 3
                }
            }
            initialized = written
        }
    }
}
