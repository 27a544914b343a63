/// An approximation of RFC 5893's Bidi rule, which UTS #46 applies (CheckBidi) once a domain holds any
/// right-to-left label. Swift exposes no Bidi_Class, so classes are read off Unicode blocks: Hebrew, Arabic,
/// Syriac, Thaana, N'Ko and their presentation forms count as right-to-left; other letters as left-to-right.
enum IDNABidi {
    /// Whether `scalar` lies in a right-to-left block (Bidi class R or AL).
    static func isRightToLeftScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            return scalar.properties.generalCategory != .nonspacingMark && !isArabicIndicDigit(scalar)
        default: return false
        }
    }

    /// Arabic-Indic digits (Bidi class AN), which also make a domain a Bidi domain.
    private static func isArabicIndicDigit(_ scalar: Unicode.Scalar) -> Bool {
        (0x0660...0x0669).contains(scalar.value) || (0x06F0...0x06F9).contains(scalar.value)
    }

    /// Arabic-script letters, between which a zero-width non-joiner may stand.
    static func isJoiningScript(_ scalar: Unicode.Scalar) -> Bool {
        (0x0600...0x08FF).contains(scalar.value) && scalar.properties.isAlphabetic
    }

    /// Whether the label holds right-to-left characters (a Bidi domain is one with any such label).
    static func isRightToLeft(_ label: [Unicode.Scalar]) -> Bool {
        label.contains { isRightToLeftScalar($0) || isArabicIndicDigit($0) }
    }

    /// Whether the label may stand in a Bidi domain: a right-to-left label (first character R/AL) holds no
    /// left-to-right letters; any other label starts with a left-to-right letter and holds no R/AL characters.
    static func satisfiesBidiRule(_ label: [Unicode.Scalar]) -> Bool {
        guard let first = label.first else { return true }
        if isRightToLeftScalar(first) {
            return !label.contains { $0.properties.isAlphabetic && !isRightToLeftScalar($0) && !isJoiningScript($0) }
        }
        guard first.properties.isAlphabetic else { return false }
        return !label.contains(where: isRightToLeftScalar)
    }
}
