import SearchQuery

/// An index shortcut for queries that compare the start of the title (`title == "lemon*"cd`): every
/// title such a query matches folds (`SQLiteStore.fold`) to text that starts with the value's leading ASCII
/// letters and digits, so the candidates are the entries of `public_item_title_start` (keyed by the
/// folded title's first two characters, then the id) whose stored folded prefix (`title_fold`) lies in
/// ``foldedRange``, read in rank order without touching a row. The rest of the query then decides each
/// candidate until enough match — all of it, or, when the hint ``isExact``, only what is left without
/// the title comparison. It finds exactly what a scan would, given `title_fold` as the publisher stores
/// it (the same `SQLiteStore.fold` a scan applies; a change to Foundation's folding would call for refilling it).
struct TitlePrefixHint: Sendable, Hashable {
    /// The value's leading ASCII letters and digits, lowercased (at least two).
    var word: String
    /// The comparison the hint comes from.
    var comparison: QueryExpression
    /// Whether the folded-title range decides ``comparison`` alone: `title == "lemon*"cd`, a value of
    /// letters and digits (at most as many as `title_fold` keeps) and one final `*`, folded as `title_fold`
    /// is. `title GLOB` over the folded title then holds exactly when the folded prefix starts with them.
    var isExact: Bool

    /// The range of `title_fold` values starting with ``word`` (as much of it as `title_fold` keeps). A
    /// range rather than `GLOB 'ba*'`, which SQLite narrows to an index range only for a literal, not
    /// a bound parameter.
    var foldedRange: (lower: String, upper: String) {
        let lower = Array(word.utf8.prefix(SQLiteStore.titleFoldPrefixLength))
        var upper = lower
        upper[upper.count - 1] += 1  // ASCII letters and digits: the next byte is still ASCII
        return (String(decoding: lower, as: UTF8.self), String(decoding: upper, as: UTF8.self))
    }

    /// The hint of `expression`, or `nil`. Only comparisons joined by `&&` at the top level are used,
    /// and only `==` on `title`/`displayName` with a value starting with at least two ASCII letters or
    /// digits (with `cd`: once folded) and without `w`/`t` (word matching may match any word). A title equal to the value (or
    /// matching its wildcards), with or without `c` and `d`, starts with those letters in some case,
    /// possibly with diacritics or in a form that folding brings to them (`ß` → `ss`, `ﬁ` → `fi`): its
    /// folded form starts with them in lower case. The longest such value gives the narrowest range.
    init?(_ expression: QueryExpression) {
        var best: TitlePrefixHint?
        Self.collect(expression) { hint in
            // The longest value bounds best; of equal ones, an exact one spares reading rows.
            let length = hint.word.utf8.count
            let bestLength = best?.word.utf8.count ?? 0
            if length > bestLength || (length == bestLength && hint.isExact && best?.isExact == false) { best = hint }
        }
        guard let best else { return nil }
        self = best
    }

    private init(word: String, comparison: QueryExpression, isExact: Bool) {
        self.word = word
        self.comparison = comparison
        self.isExact = isExact
    }

    private static func collect(_ expression: QueryExpression, _ found: (TitlePrefixHint) -> Void) {
        switch expression {
        case .and(let operands):
            for operand in operands { collect(operand, found) }
        case .comparison(let attribute, .equal, .string(let pattern), let modifiers, _)
        where attribute == "title" || attribute == "displayName":
            guard !modifiers.contains(.wordBased), !modifiers.contains(.tokenized) else { return }
            // With `cd` the condition compares the folded title with the folded value (`searchlight_fold`
            // on both sides), so the folded value's letters are what the folded title starts with, even
            // for a value that starts with non-ASCII letters (`hömupa*` → `homupa*`). With other modifiers
            // only the value's own leading ASCII letters are certain to survive folding the title.
            let folded = modifiers == [.caseInsensitive, .diacriticInsensitive] ? SQLiteStore.fold(pattern) : pattern
            let run = folded.utf8.prefix { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            }.prefix(SQLiteStore.titleFoldPrefixLength)
            guard run.count >= 2 else { return }
            let isExact =
                modifiers == [.caseInsensitive, .diacriticInsensitive] && run.count == folded.utf8.count - 1
                && folded.utf8.last == UInt8(ascii: "*")
            found(
                TitlePrefixHint(
                    word: String(decoding: run, as: UTF8.self).lowercased(), comparison: expression, isExact: isExact))
        default:
            return
        }
    }
}
