import Store

extension FullTextQuery {
    /// The `tsquery` of PostgreSQL's full-text vectors that finds what ``matchExpression`` finds in the FTS5
    /// tables, as the text of a `tsquery` value (bound as a parameter and cast, never put into SQL): each
    /// word folded as ``FullTextVector`` folds the indexed words, quoted, joined by `&`; the last word a
    /// prefix (`:*`) when it has two or more characters; in a query of the gram index (``index``), a word of
    /// an unspaced script the phrase (`<->`) of its pairs, as ``gramPhrase(_:prefix:)`` writes it for FTS5.
    /// `nil` when there is no word, or when a word folds to nothing (a lone combining mark, which FTS5 reads
    /// as no token: it then finds nothing either).
    ///
    /// Every lexeme is in quotes with `'` doubled and `\` doubled, so no text can be read as `tsquery`
    /// syntax (`&`, `|`, `!`, `<->`, `:*`, parentheses).
    public var postgresQuery: String? {
        guard !words.isEmpty else { return nil }
        var parts: [String] = []
        for index in words.indices {
            let word = words[index]
            let isPrefix = index == words.count - 1 && word.unicodeScalars.count > 1
            if isGramWord(word) {
                guard let phrase = Self.postgresGramPhrase(word, prefix: isPrefix) else { return nil }
                parts.append(phrase)
            } else {
                let folded = FullTextVector.fold(word)
                guard !folded.isEmpty else { return nil }
                parts.append(Self.lexeme(folded) + (isPrefix ? ":*" : ""))
            }
        }
        return parts.joined(separator: " & ")
    }

    /// `text` as a quoted `tsquery` or `tsvector` lexeme.
    static func lexeme(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// ``gramPhrase(_:prefix:)`` in `tsquery` syntax: the same tokens in order, adjacent (`<->`), the
    /// prefixes marked `:*`; the strings FTS5 joins with `+` are adjacent too.
    static func postgresGramPhrase(_ word: String, prefix: Bool) -> String? {
        let segments = GramText.segments(word)
        var tokens: [String] = []
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case .other(let text):
                let folded = FullTextVector.fold(String(text))
                guard !folded.isEmpty else { continue }
                tokens.append(lexeme(folded) + (isLast && prefix ? ":*" : ""))
            case .run(let run):
                for index in run.indices.dropLast() {
                    tokens.append(
                        lexeme(FullTextVector.fold(String(String.UnicodeScalarView([run[index], run[index + 1]])))))
                }
                // As in the FTS5 phrase: a run that other letters follow ends with its last character; a
                // one-character last run is the prefix of the pairs it begins.
                guard let last = run.last else { continue }
                if !isLast {
                    tokens.append(lexeme(FullTextVector.fold(String(last))))
                } else if run.count == 1 {
                    tokens.append(lexeme(FullTextVector.fold(String(last))) + ":*")
                }
            }
        }
        guard !tokens.isEmpty else { return nil }
        return tokens.count == 1 ? tokens[0] : "(" + tokens.joined(separator: " <-> ") + ")"
    }
}
