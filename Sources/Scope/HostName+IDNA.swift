internal import URLCanonical

/// International labels to A-labels: libpsl's lowercase + NFKC mapping, then ``Punycode``.
///
/// This is the core of UTS #46 processing without its full validity tables: labels holding
/// characters that can never be in a host (controls, spaces, formatting, private use, unassigned,
/// the U+FFFD left by invalid UTF-8) are refused instead.
enum IDNA {
    /// `name` with each non-ASCII label replaced by `xn--` + its Punycode, or `nil`.
    static func toASCII(_ name: String) -> String? {
        guard let mapped = PublicSuffixList.utf8Lowercased(name) else { return nil }
        var labels = mapped.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: isLabelSeparator)
        // A trailing ideographic full stop is a trailing dot.
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
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

    /// `.` and the full stops UTS #46 maps to it (ideographic, fullwidth, halfwidth ideographic).
    private static func isLabelSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E, 0x3002, 0xFF0E, 0xFF61: return true
        default: return false
        }
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return true }  // checked with the whole label by HostName afterwards
        if scalar == "\u{FFFD}" || scalar.properties.isWhitespace { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}
