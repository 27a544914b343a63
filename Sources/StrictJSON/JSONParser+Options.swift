extension JSONParser {
    /// Limits and choices of one parse. The defaults are strict RFC 8259 with bounded work.
    package struct Options: Sendable, Hashable {
        /// Arrays and objects nested deeper than this are an error (the outermost one is depth 1).
        /// `JSONValue`'s equality, hashing and deallocation recurse, so this bounds them too.
        package var maximumDepth: Int
        /// A longer input is an error, reported before parsing.
        package var maximumBytes: Int
        /// What a `\u` escape of a lone UTF-16 surrogate (`"\ud800"`) becomes: U+FFFD when `true`,
        /// an error when `false` (as Foundation's `JSONDecoder` does).
        package var replacesLoneSurrogates: Bool
        /// What a string that is not well-formed UTF-8 becomes: its bad sequences replaced by U+FFFD
        /// when `true`, an error when `false`. Text that came from a Swift `String` is always
        /// well-formed, so `true` also skips a check that cannot fail.
        package var replacesInvalidUTF8: Bool
        /// The breakage to accept instead of failing; none by default.
        package var leniencies: Leniencies

        /// Options with the given limits and choices.
        package init(
            maximumDepth: Int = 512, maximumBytes: Int = 64 << 20, replacesLoneSurrogates: Bool = false,
            replacesInvalidUTF8: Bool = false, leniencies: Leniencies = []
        ) {
            self.maximumDepth = maximumDepth
            self.maximumBytes = maximumBytes
            self.replacesLoneSurrogates = replacesLoneSurrogates
            self.replacesInvalidUTF8 = replacesInvalidUTF8
            self.leniencies = leniencies
        }
    }

    /// Breakage the parser may accept instead of failing, each use counted in ``LeniencyCounts``.
    /// These are the slips JSON written by hand or by templates shows on the web (JSON-LD blocks).
    package struct Leniencies: OptionSet, Sendable, Hashable {
        package let rawValue: Int

        package init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// `,` directly before `}` or `]`.
        package static let trailingCommas = Leniencies(rawValue: 1 << 0)
        /// Raw U+0000–U+001F inside strings (kept in the value as written).
        package static let controlCharacters = Leniencies(rawValue: 1 << 1)
        /// An unknown escape such as `\'` (the backslash is dropped, the character kept). A control
        /// character after the backslash is still an error.
        package static let invalidEscapes = Leniencies(rawValue: 1 << 2)
        /// Up to three extra `}` or `]` (and white space) after the last value, up to the end.
        package static let strayClosers = Leniencies(rawValue: 1 << 3)
        /// Several top-level objects or arrays in a row (optionally separated by `,` or `;`), returned
        /// as one array.
        package static let concatenatedValues = Leniencies(rawValue: 1 << 4)

        /// Every leniency.
        package static let all: Leniencies = [
            .trailingCommas, .controlCharacters, .invalidEscapes, .strayClosers, .concatenatedValues,
        ]
    }

    /// How often each leniency was needed by one parse.
    package struct LeniencyCounts: Sendable, Hashable {
        /// Trailing commas dropped.
        package var trailingCommas = 0
        /// Raw control characters kept in strings.
        package var controlCharacters = 0
        /// Backslashes of unknown escapes dropped.
        package var invalidEscapes = 0
        /// The stray closing brackets dropped after the last value, in order (for example `"}"`).
        package var strayClosers = ""
        /// The number of top-level values combined into an array; 0 when there was one.
        package var concatenatedValues = 0

        /// No leniency used.
        package init() {}
    }
}
