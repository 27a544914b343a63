import Foundation

/// A one-character predefined substitution variable: `$(alpha)`, `$(upper)`, `$(lower)`, `$(alnum)`,
/// `$(digit)`, `$(xdigit)`. Each matches exactly one ASCII character of its class.
enum ScalarClass: String, Sendable, CaseIterable {
    case alpha, upper, lower, alnum, digit, xdigit

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let isUpper = ("A"..."Z").contains(scalar)
        let isLower = ("a"..."z").contains(scalar)
        let isDigit = ("0"..."9").contains(scalar)
        switch self {
        case .alpha: return isUpper || isLower
        case .upper: return isUpper
        case .lower: return isLower
        case .alnum: return isUpper || isLower || isDigit
        case .digit: return isDigit
        case .xdigit: return isDigit || ("A"..."F").contains(scalar) || ("a"..."f").contains(scalar)
        }
    }

    /// The class to use when matching is case-insensitive: the text is lowercased, so `$(upper)` and
    /// `$(lower)` both mean "any letter".
    var caseFolded: ScalarClass {
        self == .upper || self == .lower ? .alpha : self
    }
}

/// The substitution variables a file may use: Apple's predefined ones and the file's own
/// `applinks.substitutionVariables`.
///
/// Apple: variable names are case-sensitive and may contain any character except `$`, `(` and `)`;
/// values may contain the `?` and `*` wildcards but not other variables. A file's own variable of
/// the same name as a predefined one replaces it.
struct SubstitutionVariables: Sendable {
    /// The file's own variables, name → values; their tries are built when they are set.
    var custom: [String: [String]] = [:] {
        didSet { customTries = custom.mapValues(Self.tries) }
    }
    private var customTries: [String: [MatchOptions: AlternativesTrie]] = [:]

    /// What `$(name)` stands for, or nil when no such variable exists.
    enum Meaning {
        case scalarClass(ScalarClass)
        /// The values, as compared under the options asked for.
        case values(AlternativesTrie)
    }

    func meaning(of name: String, _ options: MatchOptions) -> Meaning? {
        if let tries = customTries[name] { return tries[options].map(Meaning.values) }
        if let scalarClass = ScalarClass(rawValue: name) { return .scalarClass(scalarClass) }
        switch name {
        case "region": return Self.regionTries[options].map(Meaning.values)
        case "lang": return Self.languageTries[options].map(Meaning.values)
        default: return nil
        }
    }

    /// The trie of `values` under each combination of the options: four, built once.
    private static func tries(_ values: [String]) -> [MatchOptions: AlternativesTrie] {
        var result: [MatchOptions: AlternativesTrie] = [:]
        for caseSensitive in [true, false] {
            for percentEncoded in [true, false] {
                let options = MatchOptions(caseSensitive: caseSensitive, percentEncoded: percentEncoded)
                result[options] = AlternativesTrie(values, options)
            }
        }
        return result
    }

    private static let regionTries = tries(regions)
    private static let languageTries = tries(languages)

    /// Whether `name` is usable as a variable name.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" })
    }

    /// `$(region)`: the two-letter ISO 3166-1 region codes Foundation knows (Apple names
    /// `Locale.isoRegionCodes`; the UN M.49 numeric area codes it also lists are left out).
    static let regions: [String] = Locale.Region.isoRegions.map(\.identifier).filter {
        $0.utf8.count == 2 && $0.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }

    /// `$(lang)`: the ISO 639 language codes Foundation knows (`Locale.LanguageCode.isoLanguageCodes`),
    /// two- and three-letter.
    static let languages: [String] = Locale.LanguageCode.isoLanguageCodes.map(\.identifier)
}
