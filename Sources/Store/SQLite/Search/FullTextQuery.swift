/// Free text typed by a user, turned into a safe FTS5 `MATCH` expression for the public index.
///
/// The text is split the way the index's `unicode61` tokenizer splits (runs of letters, digits and
/// private-use characters; combining marks stay with their letter), and each word becomes a quoted
/// FTS5 string, so nothing the user types — quotes, `AND`/`OR`/`NOT`/`NEAR`, `-`, `*`, `^`, `:`,
/// column filters, parentheses — is ever read as FTS5 syntax. The words are AND-ed: an item matches
/// when it has every word, in any of title, description or keywords.
///
/// Prefix matching works like Spotlight's as-you-type search: the last word, when it has two or more
/// characters, also matches the words it begins (`lemon ta` finds "Lemon tart"); the words before it
/// were finished and match whole words only (`lem tart` does not find "Lemon tart"). A one-character
/// last word matches only itself, because a one-letter prefix matches almost every item and the index
/// keeps no one-character prefixes. (Only one prefix per query also keeps a search cheap: a prefix
/// longer than the index's prefix lengths merges the doclists of every word it begins.)
/// Case and diacritics never matter (`creme` finds "Crème"): the tokenizer folds both sides.
///
/// A word with letters of a script written without spaces (Japanese, Chinese, Thai, …) is found inside
/// longer runs of such letters (`ガイド` finds "京都の港ガイド"): a query with such a word reads the gram
/// index instead of the word index, every word of it (see ``FullTextIndex``, `GramText`). There
/// such a word matches wherever it is a substring of a run, so it needs no prefix to match as it is
/// typed; a one-character one matches every run that has the character.
package struct FullTextQuery: Sendable, Hashable {
    /// The most characters of text read; longer text is rejected, not truncated.
    package static let maxLength = 1_024
    /// The most words a query may have.
    package static let maxWords = 32

    /// The words of the text, in order, as typed (folding is the tokenizer's job).
    package let words: [String]
    /// The index the words are looked up in.
    let index: FullTextIndex

    /// Splits `text` into words.
    /// - Throws: ``SearchError/textTooLong`` or ``SearchError/tooManyWords`` past the bounds.
    ///   Text with no letters or digits gives no words (not an error: see ``isEmpty``).
    package init(_ text: String) throws(SearchError) {
        guard text.unicodeScalars.count <= Self.maxLength else { throw .textTooLong(limit: Self.maxLength) }
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if Self.isTokenScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        guard words.count <= Self.maxWords else { throw .tooManyWords(limit: Self.maxWords) }
        self.words = words
        index = words.contains(where: GramText.containsUnspaced) ? .grams : .words
    }

    /// Whether the text had no word to search for (empty, spaces or punctuation only).
    package var isEmpty: Bool { words.isEmpty }

    /// The prefix lengths the index keeps (`prefix = '2 3 4 5 6'` of `public_fts`): a prefix query of
    /// these lengths reads one doclist lazily, in rowid order; a longer one makes FTS5 merge the
    /// doclists of every word it begins before the first match comes out.
    static let indexedPrefixLengths = 2...6

    /// The FTS5 expression (of the word index, or of the gram index when ``index`` is `.grams`): each
    /// word quoted, the last one with `*` when it has two or more characters, joined by `AND`; `nil`
    /// when there is no word. Each word holds only letters, digits
    /// and marks, and any `"` is doubled regardless, so the string can never leave its quotes.
    package var matchExpression: String? { matchExpression(columns: nil) }

    /// Whether the last word is matched as a prefix longer than the index's prefix lengths.
    var lastWordIsLongPrefix: Bool {
        guard let last = words.last, !isGramWord(last) else { return false }
        return last.unicodeScalars.count > Self.indexedPrefixLengths.upperBound
    }

    /// ``matchExpression`` restricted to `columns` of the index (every word must be in one of them),
    /// or over all columns when `nil`; with `prefix` false, the last word too matches whole words only.
    /// Column names come from the caller's schema, never from the text.
    func matchExpression(columns: [String]?, prefix: Bool = true) -> String? {
        guard !words.isEmpty else { return nil }
        let phrases = words.indices.map { phrase(at: $0, prefix: prefix) }.joined(separator: " AND ")
        guard let columns else { return phrases }
        return "{\(columns.joined(separator: " "))} : (\(phrases))"
    }

    /// Word `index` as an FTS5 phrase: quoted, with `*` when it is the last word, `prefix` is true
    /// and it has two or more characters. A word of an unspaced script in a query of the gram index is
    /// the phrase of its pairs (``gramPhrase(_:prefix:)``).
    func phrase(at index: Int, prefix: Bool = true) -> String {
        let word = words[index]
        let isPrefix = prefix && index == words.count - 1 && word.unicodeScalars.count > 1
        if isGramWord(word) { return Self.gramPhrase(word, prefix: isPrefix) ?? Self.quoted(word) }
        return isPrefix ? Self.quoted(word) + "*" : Self.quoted(word)
    }

    /// `text` as an FTS5 string: in quotes, any `"` doubled.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `unicode61`'s token characters (general categories L*, N*, Co), plus combining marks so a
    /// decomposed "é" stays in its word (inside quotes FTS5 re-tokenizes it the same way as the text).
    static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        GramText.isTokenScalar(scalar)
    }
}
