import Foundation
import GRDB
import Index
import TestSupport
import Testing

@testable import Store

/// SPEC §4: words inside text written without spaces are found too. Real items are imported and
/// published, then searched through the Index API.
@Suite struct GramSearchTests {
    /// The donation lines of one item, with `donors` distinct donors (its engagement).
    static func item(
        _ id: String, title: String, description: String? = nil, keywords: [String] = [], donors: Int = 3
    ) -> [String] {
        (0..<donors).map { donor in
            var attributes: [String: Any] = [:]
            if let description { attributes["contentDescription"] = description }
            return activityLine(
                donor: "donor-\(donor)",
                [
                    "title": title, "persistentIdentifier": id, "userInfo": ["id": id], "requiredUserInfoKeys": ["id"],
                    "keywords": keywords, "contentAttributeSet": attributes,
                ])
        }
    }

    static let items: [[String]] = [
        item("harbour", title: "京都の港ガイド", description: "Kyoto harbour walks"),
        item("beijing", title: "我爱北京天安门"),
        item("thai", title: "ภาษาไทย", description: "เรียนภาษาไทยที่ดี"),
        item("lao", title: "ພາສາລາວ"),
        item("khmer", title: "ភាសាខ្មែរ"),
        item("myanmar", title: "မြန်မာစာ"),
        item("osaka", title: "Osaka 港ガイド"),
        item("glued", title: "Nagoyaガイドbook"),
        item("latin", title: "Harbour guide", description: "Plain Latin text", keywords: ["kyoto"]),
        item("keywords", title: "Tokyo", keywords: ["東京タワー", "夜景"]),
        item("numbers", title: "東京2024年の夏"),
    ]

    /// A store with `lines` imported and published.
    static func published(_ lines: [[String]]) async throws -> TemporaryStore {
        let store = try TemporaryStore()
        _ = try await store.importFiles([try donationFile(lines.flatMap { $0 }, in: store)])
        _ = try await store.publish()
        return store
    }

    static func identifiers(_ store: TemporaryStore, _ text: String) async throws -> [String] {
        let results = try await PublicSearch(store: try store.open()).search(text)
        return results.hits.map { hit in
            hit.title.isEmpty ? hit.uniqueIdentifier : Self.id(of: hit.title)
        }
    }

    /// The test id of the item titled `title`.
    static func id(of title: String) -> String {
        let titles = [
            "京都の港ガイド": "harbour", "我爱北京天安门": "beijing", "ภาษาไทย": "thai", "ພາສາລາວ": "lao",
            "ភាសាខ្មែរ": "khmer", "မြန်မာစာ": "myanmar", "Osaka 港ガイド": "osaka", "Nagoyaガイドbook": "glued",
            "Harbour guide": "latin", "Tokyo": "keywords", "東京2024年の夏": "numbers",
        ]
        return titles[title] ?? title
    }

    /// A word inside a run of each unspaced script, anywhere in it; what is not a substring is not found.
    @Test(arguments: [
        ("ガイド", ["glued", "harbour", "osaka"]),
        ("京都", ["harbour"]),
        ("の港", ["harbour"]),
        ("京都の港ガイド", ["harbour"]),
        ("北京", ["beijing"]),
        ("天安门", ["beijing"]),
        ("ภาษา", ["thai"]),
        ("ไทย", ["thai"]),
        ("ที่ดี", ["thai"]),
        ("ລາວ", ["lao"]),
        ("ខ្មែរ", ["khmer"]),
        ("မြန်မာ", ["myanmar"]),
        ("タワー", ["keywords"]),
        ("夜景", ["keywords"]),
        ("東京", ["keywords", "numbers"]),
        ("年の夏", ["numbers"]),
        ("東京2024", ["numbers"]),
        // Half-width kana are the same letters (NFKC).
        ("ｶﾞｲﾄﾞ", ["glued", "harbour", "osaka"]),
        // Not substrings of any run: a pair across two runs is never written.
        ("港京", []),
        ("ガイドブック", []),
        ("京東", []),
        ("2024東京", []),
    ])
    func wordsOfUnspacedScriptsAreFoundInsideRuns(text: String, expected: [String]) async throws {
        let store = try await Self.published(Self.items)
        defer { store.cleanUp() }
        let found = try await Self.identifiers(store, text)
        #expect(found.sorted() == expected, "\(text)")
    }

    /// Words of both kinds are AND-ed; a Latin word glued to a run is a word of its own in the gram index.
    @Test(arguments: [
        ("kyoto ガイド", ["harbour"]),
        ("ガイド kyoto", ["harbour"]),
        ("osaka ガイド", ["osaka"]),
        ("nagoya ガイド", ["glued"]),
        ("ガイド book", ["glued"]),
        ("ガイドbook", ["glued"]),
        ("Nagoyaガイド", ["glued"]),
        ("tokyo 夜景", ["keywords"]),
        ("kyoto 北京", []),
        ("harbour ガイド", ["harbour"]),
    ])
    func mixedQueriesAreAnded(text: String, expected: [String]) async throws {
        let store = try await Self.published(Self.items)
        defer { store.cleanUp() }
        let found = try await Self.identifiers(store, text).sorted()
        #expect(found == expected, "\(text)")
    }

    /// As-you-type: every prefix of a word of an unspaced script is a substring, so each finds it; a Latin
    /// last word next to one is a prefix as in the word index.
    @Test(arguments: [
        ("京", ["beijing", "harbour", "keywords", "numbers"]),
        ("京都", ["harbour"]),
        ("京都の", ["harbour"]),
        ("京都の港ガ", ["harbour"]),
        ("港", ["harbour", "osaka"]),
        ("ド", ["glued", "harbour", "osaka"]),
        ("ガイド kyo", ["harbour"]),
        ("ガイド bo", ["glued"]),
        ("ガイドbo", ["glued"]),
        ("Nagoyaガ", ["glued"]),
        ("ガイド k", []),
        ("京 kyoto", ["harbour"]),
    ])
    func typingFindsAsItGoes(text: String, expected: [String]) async throws {
        let store = try await Self.published(Self.items)
        defer { store.cleanUp() }
        let found = try await Self.identifiers(store, text).sorted()
        #expect(found == expected, "\(text)")
    }

    /// The longest text a query may have, as one run or as lone marks, is a bounded phrase, never an
    /// error; FTS5 syntax typed among such letters stays text.
    @Test(arguments: [
        (String(repeating: "京都の港", count: FullTextQuery.maxLength / 4), []),
        (String(repeating: "\u{3099}", count: FullTextQuery.maxLength), []),
        (#"ガイド" OR "京都"#, []),
        ("ガイド*", ["glued", "harbour", "osaka"]),
        ("NEAR(ガイド 京都)", []),
        ("{title}: ガイド", []),
    ])
    func hostileTextStaysText(text: String, expected: [String]) async throws {
        let store = try await Self.published(Self.items)
        defer { store.cleanUp() }
        let found = try await Self.identifiers(store, text)
        #expect(found.sorted() == expected, "\(text)")
    }

    /// Latin searches still read the word index alone, as before: `kyoto` is a whole token there only
    /// where it stands apart, and the glued `Nagoyaガイドbook` is one token of the word index.
    @Test func latinQueriesReadTheWordIndexAsBefore() async throws {
        let store = try await Self.published(Self.items)
        defer { store.cleanUp() }
        #expect(try await Self.identifiers(store, "kyoto").sorted() == ["harbour", "latin"])
        #expect(try await Self.identifiers(store, "harbour guide") == ["latin"])
        #expect(try await Self.identifiers(store, "nagoya") == ["glued"])  // a prefix of the glued token
        #expect(try await Self.identifiers(store, "book").isEmpty)
    }
}
