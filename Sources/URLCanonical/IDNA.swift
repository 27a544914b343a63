import Foundation

/// Domain to ASCII (https://url.spec.whatwg.org/#concept-domain-to-ascii) without the UTS #46 tables:
/// ASCII domains are lower-cased; other labels are lower-cased, NFKC-mapped and Punycode-encoded.
///
/// Code points that can never be in a host (controls, spaces, formatting, private use, unassigned, the
/// U+FFFD left by invalid UTF-8) make the domain fail; the few that UTS #46 maps to nothing are removed.
package enum IDNA {
    /// The longest domain accepted, in scalars, bounding the work on hostile input.
    static let maximumScalars = 4096

    /// `domain` in ASCII form, or `nil` when it cannot be a domain.
    package static func toASCII(_ domain: String) -> String? {
        guard domain.unicodeScalars.count <= maximumScalars else { return nil }
        if domain.unicodeScalars.allSatisfy(\.isASCII) { return asciiLowercased(domain) }
        let filtered = String(String.UnicodeScalarView(domain.unicodeScalars.filter { !isMappedToNothing($0) }))
        let mapped = filtered.lowercased().precomposedStringWithCompatibilityMapping.lowercased()
        let labels = mapped.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: isLabelSeparator)
        if filtered.unicodeScalars.contains(where: mapsToFullStop) { return nil }
        if labels.contains(where: { IDNABidi.isRightToLeft(Array($0)) }) {
            guard labels.allSatisfy({ IDNABidi.satisfiesBidiRule(Array($0)) }) else { return nil }
        }
        var result: [String] = []
        for label in labels {
            if label.allSatisfy(\.isASCII) {
                result.append(String(String.UnicodeScalarView(label)))
            } else {
                let scalars = Array(label)
                guard !scalars.starts(with: "xn--".unicodeScalars),
                    scalars.indices.allSatisfy({ isAllowed(scalars, $0) }),
                    let encoded = Punycode.encode(scalars, maximumScalars: maximumScalars)
                else { return nil }
                result.append("xn--" + encoded)
            }
        }
        return result.joined(separator: ".")
    }

    static func asciiLowercased(_ string: String) -> String {
        String(decoding: string.utf8.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// `.` and the full stops UTS #46 maps to it (ideographic, fullwidth, halfwidth ideographic).
    private static func isLabelSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E, 0x3002, 0xFF0E, 0xFF61: return true
        default: return false
        }
    }

    /// UTS #46's "ignored" code points: soft hyphen, combining grapheme joiner, Mongolian free variation
    /// selectors, zero-width space, invisible operators, deprecated format characters, variation selectors, BOM,
    /// shorthand format controls.
    private static func isMappedToNothing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x34F, 0x180B...0x180F, 0x200B, 0x2060, 0x2064, 0x206A...0x206F, 0xFE00...0xFE0F, 0xFEFF,
            0x1BCA0...0x1BCA3, 0xE0100...0xE01EF:
            return true
        default: return false
        }
    }

    /// A compatibility character whose NFKC form holds a full stop (`‥`, `⒈`): UTS #46 disallows these.
    private static func mapsToFullStop(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && !isLabelSeparator(scalar)
            && String(scalar).precomposedStringWithCompatibilityMapping.unicodeScalars.contains(".")
    }

    /// Whether `label[index]` may appear in a label. Zero-width (non-)joiners follow RFC 5892's CONTEXTJ rules
    /// approximately: after a virama, or (ZWNJ only) between two letters of a joining script.
    private static func isAllowed(_ label: [Unicode.Scalar], _ index: Int) -> Bool {
        let scalar = label[index]
        if scalar.value == 0x200C || scalar.value == 0x200D {
            guard index > 0 else { return false }
            if label[index - 1].properties.canonicalCombiningClass.rawValue == 9 { return true }
            return scalar.value == 0x200C && index + 1 < label.count && IDNABidi.isJoiningScript(label[index - 1])
                && IDNABidi.isJoiningScript(label[index + 1])
        }
        if scalar.isASCII { return true }  // forbidden ASCII is checked on the whole domain afterwards
        if scalar == "\u{FFFD}" || scalar.properties.isWhitespace { return false }
        if (0x2FF0...0x2FFF).contains(scalar.value) { return false }  // ideographic description characters
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}
