import Foundation

/// The full-text vectors of a public item on PostgreSQL (`public_item.search_vector`, `search_grams`), as
/// the text of a `tsvector` value, written by the publisher (bound as a parameter and cast).
///
/// They hold the tokens SQLite's FTS5 tables would: the text split as ``FullTextQuery`` splits a query
/// (runs of letters, digits, marks and private-use characters, `unicode61`'s rule), each token folded
/// (``fold(_:)``), at its position, with the weight of its field: A for the title, B for the description,
/// C for the keywords (the columns of `public_fts`, in order). Each field starts one position after the
/// previous one ends plus one, so a phrase never runs from one field into the next, as it cannot across
/// FTS5 columns. PostgreSQL keeps positions up to 16,383 (later words share that last one) and lexemes
/// under 2,048 bytes: a longer token is left out (FTS5 would index it, but no query word can be that long:
/// ``FullTextQuery/maxLength``).
package enum FullTextVector {
    /// The longest lexeme PostgreSQL accepts, in bytes.
    static let maxLexemeBytes = 2_046
    /// The highest position PostgreSQL keeps.
    static let maxPosition = 16_383
    /// The most positions PostgreSQL keeps per lexeme.
    static let maxPositions = 255

    /// The word vector of an item.
    package static func words(title: String, description: String?, keywords: String?) -> String {
        vector([(title, "A"), (description, "B"), (keywords, "C")])
    }

    /// The gram vector of an item (``GramText/row(title:description:keywords:)``), or `nil` when the item
    /// has no text in an unspaced script (it is then in no gram query's results).
    package static func grams(title: String, description: String?, keywords: String?) -> String? {
        guard let row = GramText.row(title: title, description: description, keywords: keywords) else { return nil }
        return vector([(row.title, "A"), (row.description, "B"), (row.keywords, "C")])
    }

    /// A token as both the vectors and the queries hold it: case and diacritics folded as FTS5's `unicode61
    /// remove_diacritics 2` folds them — lower case letter for letter (`ß` stays `ß`), diacritics removed
    /// from Latin letters only (`é` is `e`, but Greek `ί` and Cyrillic `ё` keep theirs, as in FTS5) and
    /// combining marks (U+0300–036F) dropped —, except for tokens of unspaced scripts, which are kept as
    /// they are (FTS5 removes no marks from kana or Thai: `ガ` is not `カ`).
    static func fold(_ token: String) -> String {
        if GramText.containsUnspaced(token) { return token }
        if token.utf8.allSatisfy({ $0 < 0x80 }) { return token.lowercased() }
        var folded = String.UnicodeScalarView()
        for scalar in token.lowercased().unicodeScalars {
            if combiningMarks.contains(scalar.value) { continue }
            guard let plain = latinFoldings[scalar.value] else {
                folded.append(scalar)
                continue
            }
            folded.append(contentsOf: plain)
        }
        return String(folded)
    }

    /// The combining diacritical marks, which `unicode61` removes wherever they are.
    static let combiningMarks: ClosedRange<UInt32> = 0x300...0x36F
    /// The Latin letters whose diacritics `unicode61` removes: Latin-1, Latin Extended A and B, Latin
    /// Extended Additional.
    static let latinLetters: [ClosedRange<UInt32>] = [0xC0...0x24F, 0x1E00...0x1EFF]

    /// Each of ``latinLetters`` with its diacritics removed (Foundation's diacritic-insensitive folding,
    /// then any combining mark left dropped), computed once: folding letter by letter through Foundation
    /// cost more than the rest of the vector.
    static let latinFoldings: [UInt32: String.UnicodeScalarView] = {
        var foldings: [UInt32: String.UnicodeScalarView] = [:]
        for range in latinLetters {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let plain = String(scalar).folding(options: [.diacriticInsensitive], locale: nil)
                foldings[value] = String.UnicodeScalarView(
                    plain.unicodeScalars.filter { !combiningMarks.contains($0.value) })
            }
        }
        return foldings
    }()

    private static func vector(_ fields: [(text: String?, weight: Character)]) -> String {
        // Each lexeme once, in order of first appearance, with its positions written as they come.
        var slots: [String: Int] = [:]
        var lexemes: [(token: String, positions: String, count: Int)] = []
        var position = 0
        for (text, weight) in fields {
            guard let text else { continue }
            position += 1
            var current = String.UnicodeScalarView()
            func flush() {
                guard !current.isEmpty else { return }
                let token = fold(String(current))
                current.removeAll(keepingCapacity: true)
                guard !token.isEmpty, token.utf8.count <= maxLexemeBytes else { return }
                position += 1
                let slot: Int
                if let known = slots[token] {
                    slot = known
                } else {
                    slot = lexemes.count
                    slots[token] = slot
                    lexemes.append((token, "", 0))
                }
                guard lexemes[slot].count < maxPositions else { return }
                if lexemes[slot].count > 0 { lexemes[slot].positions.append(",") }
                lexemes[slot].positions.append(String(min(position, maxPosition)))
                lexemes[slot].positions.append(weight)
                lexemes[slot].count += 1
            }
            for scalar in text.unicodeScalars {
                if GramText.isTokenScalar(scalar) { current.append(scalar) } else { flush() }
            }
            flush()
        }
        var vector = ""
        for lexeme in lexemes {
            if !vector.isEmpty { vector.append(" ") }
            vector.append(FullTextQuery.lexeme(lexeme.token))
            vector.append(":")
            vector.append(lexeme.positions)
        }
        return vector
    }
}
