/// The basic URL parser's state machine (https://url.spec.whatwg.org/#concept-basic-url-parser), without
/// state overrides (there are no setters). States live in `URLParser+States.swift`.
struct URLParser {
    enum State {
        case schemeStart, scheme, noScheme, specialRelativeOrAuthority, pathOrAuthority, relative, relativeSlash
        case specialAuthoritySlashes, specialAuthorityIgnoreSlashes, authority, host, port
        case file, fileSlash, fileHost, pathStart, path, opaquePath, query, fragment
    }

    /// Inputs longer than this many scalars are refused, bounding memory and time on hostile input.
    static let maximumScalars = 1 << 20

    let input: [Unicode.Scalar]
    let base: URLRecord?
    var url = URLRecord()
    var state = State.schemeStart
    var buffer = ""
    var pointer = 0
    var atSignSeen = false
    var insideBrackets = false
    var passwordTokenSeen = false
    var portDigitSeen = false

    /// Parses `string` against `base`; `nil` on failure.
    static func parse(_ string: String, base: URLRecord?) -> URLRecord? {
        let all = Array(string.unicodeScalars)
        guard all.count <= maximumScalars else { return nil }
        // Leading and trailing C0 control or space are stripped; tab and newline are removed everywhere.
        let start = all.firstIndex { $0.value > 0x20 } ?? all.endIndex
        let end = all.lastIndex { $0.value > 0x20 }.map { $0 + 1 } ?? start
        let scalars = all[start..<max(start, end)].filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        var parser = URLParser(input: scalars, base: base)
        return parser.run() ? parser.url : nil
    }

    /// The current code point, `nil` at the end (the standard's EOF code point).
    var current: Unicode.Scalar? { at(pointer) }

    func at(_ index: Int) -> Unicode.Scalar? { index >= 0 && index < input.count ? input[index] : nil }

    /// Whether the input after the current code point starts with `prefix`.
    func remainingStarts(with prefix: String) -> Bool {
        for (offset, scalar) in prefix.unicodeScalars.enumerated() where at(pointer + 1 + offset) != scalar {
            return false
        }
        return true
    }

    /// `/`, or `\` in a special URL.
    func isSlash(_ scalar: Unicode.Scalar?) -> Bool { scalar == "/" || (url.isSpecial && scalar == "\\") }

    /// The end of an authority, host or port: EOF, a slash, `?` or `#`.
    func isAuthorityEnd(_ scalar: Unicode.Scalar?) -> Bool {
        scalar == nil || isSlash(scalar) || scalar == "?" || scalar == "#"
    }

    private mutating func run() -> Bool {
        while pointer <= input.count {
            guard step() else { return false }
            pointer += 1
        }
        return true
    }

    /// Windows drive letters (https://url.spec.whatwg.org/#windows-drive-letter).
    static func isWindowsDriveLetter(_ string: String) -> Bool {
        let scalars = Array(string.unicodeScalars)
        return scalars.count == 2 && isASCIIAlpha(scalars[0]) && (scalars[1] == ":" || scalars[1] == "|")
    }

    static func isNormalizedWindowsDriveLetter(_ string: String) -> Bool {
        isWindowsDriveLetter(string) && string.hasSuffix(":")
    }

    /// Whether the input from `index` starts with a Windows drive letter followed by EOF, a slash, `?` or `#`.
    func startsWithWindowsDriveLetter(at index: Int) -> Bool {
        guard let first = at(index), let second = at(index + 1), Self.isASCIIAlpha(first),
            second == ":" || second == "|"
        else { return false }
        let third = at(index + 2)
        return third == nil || third == "/" || third == "\\" || third == "?" || third == "#"
    }

    static func isASCIIAlpha(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// `.` or `%2e`, case-insensitively.
    static func isSingleDot(_ segment: String) -> Bool {
        segment == "." || segment.lowercased() == "%2e"
    }

    /// `..` with either dot possibly written `%2e`.
    static func isDoubleDot(_ segment: String) -> Bool {
        switch segment.lowercased() {
        case "..", ".%2e", "%2e.", "%2e%2e": return true
        default: return false
        }
    }
}
