import SearchQuery
import Store

/// A full-text shortcut for queries that compare the start of the title (`title == "lemon*"cd`): the
/// items whose title begins with at least ``length`` ASCII characters are found through FTS5 (their first
/// token starts with the value's leading letters), the others through an index on that length — so the
/// query reads a few items instead of scanning the index, and finds exactly what a scan would.
struct TitlePrefixHint: Sendable, Hashable {
    /// The FTS5 expression: the first token of `title` starts with the run of letters and digits.
    var match: String
    /// How many leading characters of the title must be ASCII for the expression to be a superset.
    var length: Int
    /// The range of `title_fold` values starting with the value's leading letters (lowercased): every
    /// title the query matches folds to text starting with them. A range rather than `GLOB 'ba*'`, which
    /// SQLite narrows to an index range only for a literal, not a bound parameter.
    var foldedRange: (lower: String, upper: String) {
        let lower = Array(word.utf8.prefix(Store.titleFoldPrefixLength))
        var upper = lower
        upper[upper.count - 1] += 1  // ASCII letters and digits: the next byte is still ASCII
        return (String(decoding: lower, as: UTF8.self), String(decoding: upper, as: UTF8.self))
    }
    /// The value's leading ASCII letters and digits, lowercased.
    var word: String

    /// The hint of `expression`, or `nil`. Only comparisons joined by `&&` at the top level are used,
    /// and only `==` on `title`/`displayName` with a value starting with at least two ASCII letters or
    /// digits and without `w`/`t` (word matching may match any word). If the title's first `length`
    /// characters are ASCII, folding (`c`, `d`) changes only their case, so a title equal to the value
    /// (or matching its wildcards) begins with those letters, and so does its first FTS5 token.
    /// Titles with non-ASCII characters there may fold into ASCII (`ß` → `ss`): they take the index path.
    init?(_ expression: QueryExpression) {
        var best: TitlePrefixHint?
        Self.collect(expression) { hint in
            if hint.length > best?.length ?? 0 { best = hint }
        }
        guard let best else { return nil }
        self = best
    }

    private init(word: String, length: Int) {
        self.match = "{title}: ^\"\(word)\"*"
        self.length = length
        self.word = word
    }

    private static func collect(_ expression: QueryExpression, _ found: (TitlePrefixHint) -> Void) {
        switch expression {
        case .and(let left, let right):
            collect(left, found)
            collect(right, found)
        case .comparison(let attribute, .equal, .string(let pattern), let modifiers)
        where attribute == "title" || attribute == "displayName":
            guard !modifiers.contains(.wordBased), !modifiers.contains(.tokenized) else { return }
            let run = pattern.utf8.prefix { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            }.prefix(maxStoredLength)
            guard run.count >= 2 else { return }
            let word = String(decoding: run, as: UTF8.self).lowercased()
            found(TitlePrefixHint(word: word, length: run.count))
        default:
            return
        }
    }

    /// Longer prefixes are stored as this: values of up to this many letters use the shortcut.
    static let maxStoredLength = Store.titleASCIIPrefixCap
}
