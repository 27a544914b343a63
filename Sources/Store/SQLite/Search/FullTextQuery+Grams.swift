/// A full-text index of the public items, both with the columns title, description and keywords and the
/// item id as rowid, so a search runs the same way over either.
enum FullTextIndex: Sendable, Hashable {
    /// `public_fts`: every item, by words as `unicode61` splits them.
    case words
    /// `public_grams`: the items with text written without spaces, that text as pairs of characters
    /// and every other word as in the word index (`GramText`). Every item a query with such a word
    /// can match is there, so the query reads it alone.
    case grams

    /// The FTS5 table.
    var table: String {
        switch self {
        case .words: "public_fts"
        case .grams: "public_grams"
        }
    }
}

extension FullTextQuery {
    /// Whether `word` is matched as pairs of characters: in a query that reads the gram index, a word
    /// with letters of an unspaced script.
    func isGramWord(_ word: String) -> Bool {
        index == .grams && GramText.containsUnspaced(word)
    }

    /// `word` (with letters of an unspaced script) as an FTS5 phrase of the gram index: its pieces in
    /// order, as ``GramText/indexed(_:)`` writes them, so that the phrase holds where the word is in the
    /// text. A run of the word that other letters follow ends where a run of the text ends: its pairs
    /// and its last character (`東京2024` → `"東京 京 2024"`). The word's last run may go on in the
    /// text: its pairs only (`ガイド` → `"ガイ イド"`), or, for one character, the pairs it begins
    /// (`"用"*`). Letters of other scripts are one token each, the last one a prefix when `prefix` is
    /// true. `nil` when nothing is left to look up (a run that normalizes to nothing).
    static func gramPhrase(_ word: String, prefix: Bool) -> String? {
        let segments = GramText.segments(word)
        var strings: [String] = []
        var tokens: [String] = []
        func close(prefix: Bool) {
            guard !tokens.isEmpty else { return }
            strings.append(quoted(tokens.joined(separator: " ")) + (prefix ? "*" : ""))
            tokens = []
        }
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case .other(let text):
                tokens.append(String(text))
                if isLast { close(prefix: prefix) }
            case .run(let run):
                for index in run.indices.dropLast() {
                    tokens.append(String(String.UnicodeScalarView([run[index], run[index + 1]])))
                }
                guard let last = run.last else { continue }
                if !isLast {
                    tokens.append(String(last))
                } else if run.count == 1 {
                    close(prefix: false)
                    tokens = [String(last)]
                    close(prefix: true)
                }
            }
        }
        close(prefix: false)
        return strings.isEmpty ? nil : strings.joined(separator: " + ")
    }
}
