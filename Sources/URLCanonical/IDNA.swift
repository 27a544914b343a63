import Foundation

/// Domain to ASCII (https://url.spec.whatwg.org/#concept-domain-to-ascii) without the UTS #46 tables:
/// ASCII domains are lower-cased; other labels are lower-cased, NFKC-mapped and Punycode-encoded.
///
/// Code points that can never be in a host (controls, spaces, formatting, private use, unassigned, the
/// U+FFFD left by invalid UTF-8) make the domain fail; the few that UTS #46 maps to nothing are removed.
enum IDNA {
    /// The longest domain accepted, in scalars, bounding the work on hostile input.
    static let maximumScalars = 4096

    /// `domain` in ASCII form, or `nil` when it cannot be a domain.
    static func toASCII(_ domain: String) -> String? {
        guard domain.unicodeScalars.count <= maximumScalars else { return nil }
        if domain.unicodeScalars.allSatisfy(\.isASCII) { return asciiLowercased(domain) }
        let filtered = String(String.UnicodeScalarView(domain.unicodeScalars.filter { !isMappedToNothing($0) }))
        let mapped = filtered.lowercased().precomposedStringWithCompatibilityMapping.lowercased()
        let labels = mapped.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: isLabelSeparator)
        var result: [String] = []
        for label in labels {
            if label.allSatisfy(\.isASCII) {
                result.append(String(String.UnicodeScalarView(label)))
            } else {
                guard label.allSatisfy(isAllowed), let encoded = Punycode.encode(Array(label)) else { return nil }
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

    /// Soft hyphen, combining grapheme joiner, variation selectors, zero-width space, word joiner, BOM.
    private static func isMappedToNothing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x34F, 0x180B...0x180D, 0x200B, 0x2060, 0xFE00...0xFE0F, 0xFEFF: return true
        default: return false
        }
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return true }  // forbidden ASCII is checked on the whole domain afterwards
        if scalar == "\u{FFFD}" || scalar.properties.isWhitespace { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}
