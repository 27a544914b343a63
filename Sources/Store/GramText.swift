import Foundation

/// The text of the gram index (`public_grams`), which finds words inside text written without spaces
/// (Japanese, Chinese, Thai, Lao, Khmer, Myanmar, …): `ガイド` in `京都の港ガイド`.
///
/// The word index's tokenizer takes a run of such letters for one word (`京都の港ガイド` is one token),
/// so a word inside it cannot be found there. In the gram text every **unspaced run** — a maximal run of
/// letters, marks and digits of those scripts, normalized to NFKC so half-width `ｶﾞ` is `ガ` — is
/// written as its overlapping pairs of characters, then its last character alone:
/// `京都の港ガイド` → `京都 都の の港 港ガ ガイ イド ド`. Everything else is kept as it is, set apart
/// from the runs by spaces, so the Latin words of such an item are tokens of the gram index too
/// (`Kyotoガイド` → `Kyoto ガイ イド ド`).
///
/// A query word of unspaced letters is then a phrase of its pairs (`ガイド` → `"ガイ イド"`), which
/// holds exactly where the word is a substring of a run; a one-character word is a prefix (`"港"*`,
/// with the index's one-character prefix index), since every character of a run begins a pair or is
/// the run's last one. A pair phrase never matches across two runs: the pair that would join them
/// is never written.
package enum GramText {
    /// A part of some text: a run of unspaced letters (normalized), or anything else, as it was.
    package enum Segment: Equatable, Sendable {
        case other(Substring)
        case run([Unicode.Scalar])
    }

    /// `text` as the gram index holds it (see ``GramText``); `text` itself when it has no unspaced run.
    package static func indexed(_ text: String) -> String {
        guard containsUnspaced(text) else { return text }
        var out = String.UnicodeScalarView()
        for segment in segments(text) {
            switch segment {
            case .other(let other):
                out.append(contentsOf: other.unicodeScalars)
            case .run(let run):
                out.append(" ")
                for index in run.indices.dropLast() {
                    out.append(run[index])
                    out.append(run[index + 1])
                    out.append(" ")
                }
                if let last = run.last { out.append(last) }
                out.append(" ")
            }
        }
        return String(out)
    }

    /// The gram index row of an item, or `nil` when none of its fields has an unspaced run: only such
    /// items are in the gram index (every field is then written, so a query mixing scripts finds its
    /// Latin words there too).
    package static func row(title: String, description: String?, keywords: String?) -> GramRow? {
        guard
            containsUnspaced(title) || description.map(containsUnspaced) == true
                || keywords.map(containsUnspaced) == true
        else { return nil }
        return GramRow(title: indexed(title), description: description.map(indexed), keywords: keywords.map(indexed))
    }

    /// Whether `text` has a character of an unspaced script. Text under U+0800 (every byte below 0xE0:
    /// Latin, Greek, Cyrillic, …) is answered from its bytes alone.
    package static func containsUnspaced(_ text: String) -> Bool {
        guard text.utf8.contains(where: { $0 >= 0xE0 }) else { return false }
        return text.unicodeScalars.contains(where: isUnspaced)
    }

    /// `text` cut into unspaced runs and the rest, in order. A variation selector inside a run is
    /// dropped (`葛󠄀` is `葛`); a run's scalars are normalized to NFKC, keeping only token characters.
    package static func segments(_ text: String) -> [Segment] {
        let scalars = text.unicodeScalars
        var segments: [Segment] = []
        var index = scalars.startIndex
        var otherStart = index
        while index != scalars.endIndex {
            guard isUnspaced(scalars[index]) else {
                index = scalars.index(after: index)
                continue
            }
            if otherStart != index { segments.append(.other(Substring(scalars[otherStart..<index]))) }
            var run = String.UnicodeScalarView()
            while index != scalars.endIndex,
                isUnspaced(scalars[index]) || isVariationSelector(scalars[index])
            {
                if !isVariationSelector(scalars[index]) { run.append(scalars[index]) }
                index = scalars.index(after: index)
            }
            otherStart = index
            let normalized = Array(nfkc(String(run)).unicodeScalars).filter(isTokenScalar)
            if !normalized.isEmpty { segments.append(.run(normalized)) }
        }
        if otherStart != scalars.endIndex { segments.append(.other(Substring(scalars[otherStart...]))) }
        return segments
    }

    /// `text` in NFKC. Foundation on Linux leaves a compatibility decomposition uncomposed (`ｶﾞ` gave
    /// `カ` and U+3099): composing again gives NFKC there and changes nothing where it was already.
    static func nfkc(_ text: String) -> String {
        text.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
    }

    /// Whether `scalar` is a letter, mark or digit of a script written without spaces between words.
    package static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x0E00, unspacedRanges.contains(where: { $0.contains(value) }) else { return false }
        return isTokenScalar(scalar)
    }

    /// The blocks of the unspaced scripts: Thai, Lao, Myanmar, Khmer, the Tai scripts, Balinese,
    /// Javanese, Yi, Bopomofo, Hiragana, Katakana (with half-width and supplementary kana) and Han
    /// (with its iteration marks and numerals). Punctuation and symbols in them are not letters, so
    /// ``isUnspaced(_:)`` leaves them out.
    static let unspacedRanges: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF,  // Thai, Lao
        0x1000...0x109F,  // Myanmar
        0x1780...0x17FF,  // Khmer
        0x1950...0x19DF,  // Tai Le, New Tai Lue
        0x1A20...0x1AAF,  // Tai Tham
        0x1B00...0x1B7F,  // Balinese
        0x3005...0x3007,  // 々 〆 〇
        0x3021...0x3029,  // Hangzhou numerals
        0x3031...0x3035,  // kana repeat marks
        0x3038...0x303C,
        0x3040...0x30FF,  // Hiragana, Katakana
        0x3100...0x312F,  // Bopomofo
        0x31A0...0x31BF,
        0x31F0...0x31FF,  // Katakana phonetic extensions
        0x3400...0x4DBF,  // Han extension A
        0x4E00...0x9FFF,  // Han
        0xA000...0xA4CF,  // Yi
        0xA980...0xA9FF,  // Javanese, Myanmar extension B
        0xAA60...0xAADF,  // Myanmar extension A, Tai Viet
        0xF900...0xFAFF,  // Han compatibility
        0xFF66...0xFF9F,  // half-width Katakana
        0x1AFF0...0x1B16F,  // kana supplements
        0x20000...0x3FFFF,  // Han extensions B and later
    ]

    /// Variation selectors: they pick a glyph, not a character, and are not typed in a query.
    static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
        (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
    }

    /// The characters words are made of (general categories L*, N*, M*, Co): `unicode61`'s token
    /// characters plus combining marks (the gram index's tokenizer keeps those in its tokens, `categories
    /// 'L* N* Co M*'`, so a Thai or Myanmar word is not cut at its vowel signs).
    package static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII, the common case, without the property look-up: its letters and digits are its only tokens.
        if scalar.isASCII {
            let value = scalar.value | 0x20  // upper case to lower case; digits are unchanged
            return (0x30...0x39).contains(scalar.value) || (0x61...0x7A).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse,
            .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}

/// An item's fields as the gram index holds them (``GramText/indexed(_:)``).
package struct GramRow: Sendable, Equatable {
    package var title: String
    package var description: String?
    package var keywords: String?

    package init(title: String, description: String?, keywords: String?) {
        self.title = title
        self.description = description
        self.keywords = keywords
    }
}
