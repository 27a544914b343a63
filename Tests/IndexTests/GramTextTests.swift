import Foundation
import Testing

@testable import Index
@testable import Store

/// The gram text of the index and the phrases of queries: the two must agree for a word to be found.
@Suite struct GramTextTests {
    @Test(arguments: [
        ("京都の港ガイド", " 京都 都の の港 港ガ ガイ イド ド "),
        ("Kyotoガイド book", "Kyoto ガイ イド ド  book"),
        ("京都・大阪", " 京都 都 ・ 大阪 阪 "),
        ("港", " 港 "),
        // NFKC: half-width kana, a decomposed voiced mark; a variation selector is dropped.
        ("ｶﾞｲﾄﾞ", " ガイ イド ド "),
        ("カ\u{3099}イ", " ガイ イ "),
        ("葛\u{E0100}城", " 葛城 城 "),
        // Thai vowel and tone marks stay in their pairs.
        ("ที่ดี", " ที ี่ ่ด ดี ี "),
        ("東京2024年", " 東京 京 2024 年 "),
    ])
    func runsBecomePairsAndTheirLastCharacter(text: String, expected: String) {
        #expect(GramText.indexed(text) == expected)
    }

    /// Text of spaced scripts is not in the gram index at all, and is never rewritten.
    @Test(arguments: ["Lemon tart", "Crème brûlée", "Ελληνικά", "Русский", "한국어 텍스트", "emoji ❤️", ""])
    func spacedTextHasNoGramRow(text: String) {
        #expect(!GramText.containsUnspaced(text))
        #expect(GramText.indexed(text) == text)
        #expect(GramText.row(title: text, description: text, keywords: text) == nil)
    }

    @Test func anItemWithOneUnspacedFieldHasEveryFieldIndexed() {
        let row = GramText.row(title: "Kyoto", description: "Harbour walks", keywords: "港\nharbour")
        #expect(row == GramRow(title: "Kyoto", description: "Harbour walks", keywords: " 港 \nharbour"))
    }

    /// A query word of an unspaced script is the phrase of its pairs; a run that other letters follow ends
    /// with its last character as in the index; a last lone character is a prefix.
    @Test(arguments: [
        ("ガイド", #""ガイ イド""#),
        ("京都", #""京都""#),
        ("港", #""港"*"#),
        ("東京2024", #""東京 京 2024""#),
        ("iPhone用", #""iPhone" + "用"*"#),
        ("ｶﾞｲﾄﾞ", #""ガイ イド""#),
    ])
    func queryWordsBecomePhrases(word: String, expected: String) throws {
        #expect(try FullTextQuery(word).phrase(at: 0, prefix: false) == expected)
    }

    @Test func theLastLatinWordOfAGramQueryIsAPrefix() throws {
        let query = try FullTextQuery("ガイド kyo")
        #expect(query.index == .grams)
        #expect(query.matchExpression == #""ガイ イド" AND "kyo"*"#)
        #expect(try FullTextQuery("ガイドbo").matchExpression == #""ガイ イド ド bo"*"#)
        #expect(try FullTextQuery("ガイド k").matchExpression == #""ガイ イド" AND "k""#)
    }

    /// Latin queries read the word index with the same expression as before the gram index.
    @Test(arguments: ["lemon ta", "Crème brûlée", "Ελληνικά", "한국어", "kyoto guide"])
    func spacedQueriesReadTheWordIndex(text: String) throws {
        let query = try FullTextQuery(text)
        #expect(query.index == .words)
        let plain = query.words.enumerated().map { index, word in
            "\"\(word)\"" + (index == query.words.count - 1 && word.unicodeScalars.count > 1 ? "*" : "")
        }
        #expect(query.matchExpression == plain.joined(separator: " AND "))
    }
}
