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
    package var postgresQuery: String? { postgresQuery(weights: nil) }

    /// ``postgresQuery`` with every lexeme restricted to the fields of `weights` (`.title` is `A`, title or
    /// keywords `AC`: the vector's weights, ``FullTextVector``), as ``matchExpression(columns:prefix:)``
    /// restricts each phrase to columns; with `prefix` false the last word too matches whole words only.
    func postgresQuery(weights: PostgresWeights?, prefix: Bool = true) -> String? {
        guard !words.isEmpty else { return nil }
        var parts: [String] = []
        for index in words.indices {
            guard let phrase = postgresPhrase(at: index, weights: weights, prefix: prefix) else { return nil }
            parts.append(phrase)
        }
        return parts.joined(separator: " & ")
    }

    /// Word `index` alone as a `tsquery` (``postgresQuery(weights:prefix:)``'s part for it), or `nil` when it
    /// folds to nothing.
    func postgresPhrase(at index: Int, weights: PostgresWeights? = nil, prefix: Bool = true) -> String? {
        let word = words[index]
        let isPrefix = prefix && index == words.count - 1 && word.unicodeScalars.count > 1
        let labels = weights?.rawValue ?? ""
        if isGramWord(word) { return Self.postgresGramPhrase(word, prefix: isPrefix, weights: labels) }
        let folded = FullTextVector.fold(word)
        guard !folded.isEmpty else { return nil }
        let suffix = (isPrefix ? "*" : "") + labels
        return Self.lexeme(folded) + (suffix.isEmpty ? "" : ":" + suffix)
    }

    /// `text` as a quoted `tsquery` or `tsvector` lexeme.
    static func lexeme(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "\\") }) else {
            return "'" + text + "'"
        }
        return "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// ``gramPhrase(_:prefix:)`` in `tsquery` syntax: the same tokens in order, adjacent (`<->`), the
    /// prefixes marked `:*`; the strings FTS5 joins with `+` are adjacent too.
    /// Every token carries `weights` (weight labels, or nothing): adjacent positions are in one field.
    static func postgresGramPhrase(_ word: String, prefix: Bool, weights: String = "") -> String? {
        let segments = GramText.segments(word)
        func token(_ text: String, prefix: Bool) -> String {
            let suffix = (prefix ? "*" : "") + weights
            return lexeme(text) + (suffix.isEmpty ? "" : ":" + suffix)
        }
        var tokens: [String] = []
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case .other(let text):
                let folded = FullTextVector.fold(String(text))
                guard !folded.isEmpty else { continue }
                tokens.append(token(folded, prefix: isLast && prefix))
            case .run(let run):
                for index in run.indices.dropLast() {
                    tokens.append(
                        token(
                            FullTextVector.fold(String(String.UnicodeScalarView([run[index], run[index + 1]]))),
                            prefix: false))
                }
                // As in the FTS5 phrase: a run that other letters follow ends with its last character; a
                // one-character last run is the prefix of the pairs it begins.
                guard let last = run.last else { continue }
                if !isLast {
                    tokens.append(token(FullTextVector.fold(String(last)), prefix: false))
                } else if run.count == 1 {
                    tokens.append(token(FullTextVector.fold(String(last)), prefix: true))
                }
            }
        }
        guard !tokens.isEmpty else { return nil }
        return tokens.count == 1 ? tokens[0] : "(" + tokens.joined(separator: " <-> ") + ")"
    }
}

/// The fields a `tsquery` lexeme may match in, as weight labels of the vectors (``FullTextVector``: A title,
/// B description, C keywords): the PostgreSQL form of an FTS5 column filter.
enum PostgresWeights: String, Sendable {
    case title = "A"
    case titleOrKeywords = "AC"
}
