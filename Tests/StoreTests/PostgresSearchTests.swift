import Foundation
import Index
import SearchQuery
import Store
import TestSupport
import Testing

/// Search on a PostgreSQL store (through its replica) against search on a SQLite store holding the same
/// items: the same query tables as the SQLite tests, evaluated on both engines, must find the same items —
/// which holds when the replica copied every column and built its full-text rows as the publisher does.
@Suite("Search on PostgreSQL answers as on SQLite")
struct PostgresSearchTests {
    static let now = PublicQueryTests.now

    /// Items whose text holds what `LIKE`, SQL and `tsquery` give a meaning to, and folding's harder cases.
    static let awkwardRows: [TestItem] = [
        TestItem(id: 10, title: "100% pure_juice", keywords: ["50%", "a_b"], url: "https://x.example/percent"),
        TestItem(
            id: 11, title: #"back\slash"#, description: "it's 'quoted'", keywords: [#"slash\"#],
            url: "https://x.example/slash"),
        TestItem(id: 12, title: "Straße", keywords: ["Ærø", "Œuvre"], url: "https://x.example/strasse"),
        TestItem(id: 13, title: "STRASSE", description: "ΣΟΦΊΑ σοφία", url: "https://x.example/upper"),
        TestItem(id: 14, title: "Star*fruit", description: "a & b | !c :* (d)", url: "https://x.example/star"),
        TestItem(id: 15, title: "e\u{301}clair", keywords: ["", "ﬁne"], url: "https://x.example/eclair"),
        TestItem(id: 16, title: "Ёлка зимой", description: "Ελληνικά", url: "https://x.example/cyrillic"),
    ]

    /// Queries beyond the SQLite tests' tables: `LIKE`'s own wildcards, escapes, folding, hostile text.
    static let awkwardQueries = [
        #"title == "100%*""#, #"title == "*_*""#, #"title == "100_*""#, #"keywords == "50%""#, #"keywords == "a?b""#,
        #"title == "back\\slash""#, #"title == "*\\*""#, #"contentDescription == "it's*""#,
        #"contentDescription == "'quoted'"w"#, #"title == "strasse"cd"#, #"title == "STRASSE"c"#,
        #"title == "straße"c"#, #"keywords == "aero"cd"#, #"keywords == "ærø"c"#, #"keywords == "oeuvre"cd"#,
        #"contentDescription == "σοφια"cdw"#, #"title == "eclair"cd"#, #"title == "ÉCLAIR"c"#,
        #"keywords == "fine"cd"#, #"keywords == """#, #"keywords != "50%""#, #"title == "Star\*fruit""#,
        #"title == "*\**""#, #"title == "star*"cd && !(title == "*fruit")"#, #"title == "' OR 1=1 --""#,
        #"title == "$1""#, #"title == "x'); DROP TABLE public_item; --""#, #"title == "a & b | !c :*"t"#,
        #"contentDescription == "b"tw"#, #"title == "  ""#, #"title == ""t"#, #"title > "S" && title < "T""#,
        #"InRange(keywords, "A", "b")"#, #"keywords < "a""#,
        "keywords == \"*\\\\\u{301}\"cd", "keywords == \"*%\u{301}\"cd",
        "title == \"\(String(repeating: "%_\\\\'", count: 500))*\"",
    ]

    @Test("every query of the SQLite tests finds the same items, in the same order")
    func queriesMatch() async throws {
        let index = try await DualIndex(PublicQueryTests.rows + Self.awkwardRows)
        let tables = PublicQueryTests.attributeCases + PublicQueryTests.keywordCases + PublicQueryTests.dateCases
        let identifiers = Dictionary(
            uniqueKeysWithValues: (PublicQueryTests.rows + Self.awkwardRows).map { ($0.id, $0.uniqueIdentifier) })
        do {
            for (query, expected) in tables {
                let postgres = try await index.postgresHits("", query: query, now: Self.now, context: query)
                #expect(postgres == (try await index.sqliteHits("", query: query, now: Self.now)), "\(query)")
                // The SQLite tests' own expectations, for the items they are about.
                let own = Set(expected.compactMap { identifiers[$0] })
                #expect(Set(postgres).intersection(PublicQueryTests.rows.map(\.uniqueIdentifier)) == own, "\(query)")
            }
            for query in Self.awkwardQueries {
                let postgres = try await index.postgresHits("", query: query, now: Self.now, context: query)
                #expect(postgres == (try await index.sqliteHits("", query: query, now: Self.now)), "\(query)")
            }
            for (text, query) in [("tart", "rating >= 1"), ("tart", "rating < 4"), ("cream", "rating >= 1")] {
                let postgres = try await index.postgresHits(text, query: query, now: Self.now)
                #expect(Set(postgres) == Set(try await index.sqliteHits(text, query: query, now: Self.now)))
            }
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }

    /// Text in scripts written without spaces (read through the gram vector), as in `GramSearchTests`.
    static let gramRows: [TestItem] = [
        TestItem(id: 200, title: "京都の港ガイド", description: "Kyoto harbour walks", url: "https://g.example/harbour"),
        TestItem(id: 201, title: "我爱北京天安门", url: "https://g.example/beijing"),
        TestItem(id: 202, title: "ภาษาไทย", description: "เรียนภาษาไทยที่ดี", url: "https://g.example/thai"),
        TestItem(id: 203, title: "Osaka 港ガイド", url: "https://g.example/osaka"),
        TestItem(id: 204, title: "Nagoyaガイドbook", url: "https://g.example/glued"),
        TestItem(
            id: 205, title: "Harbour guide", description: "Plain Latin text", keywords: ["kyoto"],
            url: "https://g.example/latin"),
        TestItem(id: 206, title: "Tokyo", keywords: ["東京タワー", "夜景"], url: "https://g.example/keywords"),
        TestItem(id: 207, title: "東京2024年の夏", url: "https://g.example/numbers"),
        TestItem(id: 208, title: "カイド", url: "https://g.example/unvoiced"),
    ]

    /// Free text whose matches both engines rank in the same order (see ``freeTextMatches()``).
    static let rankedTexts = ["lemon", "fig roll", "fig", "lemo"]

    /// Free text of the SQLite tests: prefixes, case, diacritics, hostile text, unspaced scripts.
    static let texts = [
        "lem", "lemon ta", "TART le", "lem tart", "lemo", "lemon tar", "crem", "CRÈME BRÛL", "creme brulee", "l",
        "tartx", "lemon\" OR \"plum", "NEAR(lemon tart)", "lemon OR plum", "-lemon", "lemon*", "title:lemon",
        "{title}: lemon", "^lemon", "(lemon", "lemon AND", "lemon NOT tart", "'; DROP TABLE public_item; --",
        "lemon:*", "lemon & plum", "lemon | plum", "!lemon", "lemon <-> tart", "lemon\\", "lemon\u{1}\u{7F}tart",
        "e\u{301}clair", "eclair", "ÉCLAIR", "straße", "strasse", "ærø", "\u{301}", "lemon \u{301}",
        "ガイド", "港", "京都", "北京", "ภาษา", "Kyoto", "kyoto ガイ", "Nagoyaガイド", "東京", "夜景", "2024", "東京2024",
        "カイド", "ガ", "harbour", "Harbour ガイド", "tokyo タワー",
        "σοφια", "ΣΟΦΊΑ", "ελληνικα", "ёлка", "елка", "ЗИМОЙ",
        String(repeating: "lemon ", count: 30), String(repeating: "a", count: 1_000),
    ]

    @Test("free text finds the same items; ranked alike where both rankings agree")
    func freeTextMatches() async throws {
        let index = try await DualIndex(PublicSearchTests.rows + Self.awkwardRows + Self.gramRows)
        do {
            var found = 0
            for text in Self.texts + Self.rankedTexts {
                let sqlite = try await index.sqliteHits(text, now: Self.now)
                let postgres = try await index.postgresHits(text, now: Self.now, context: text)
                if !sqlite.isEmpty { found += 1 }
                #expect(postgres.sorted() == sqlite.sorted(), "\(text.prefix(40))")
                if Self.rankedTexts.contains(text) { #expect(postgres == sqlite, "\(text)") }
            }
            // Most of the texts find something: the comparison is not of empty answers.
            #expect(found >= 35, "\(found)")
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }

    /// Every hostile text the tests use, as free text and as a query's value.
    static let hostile = [
        "x' OR '1'='1", "'; DROP TABLE public_item; --", "$1", "$1::tsquery", "a & b | !c <-> (d):*", #"back\slash"#,
        "\u{1}\u{7}\u{1B}[31m", "it''s", "%_", "\u{FEFF}zero\u{200B}width", String(repeating: "ab'\\", count: 30),
    ]

    /// `text` as the value of a query string: `\`, `"` and `*` escaped.
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "*", with: "\\*")
    }

    @Test("hostile text runs on PostgreSQL and finds what SQLite finds")
    func hostileTextRuns() async throws {
        let index = try await DualIndex(PublicSearchTests.rows + Self.awkwardRows)
        do {
            for text in Self.hostile {
                let quoted = Self.quoted(text)
                for query in [
                    #"title == "\#(quoted)""#, #"keywords != "\#(quoted)*"cdw"#, #"title == "*\#(quoted)*"c"#,
                ] {
                    let sqlite = try await index.sqliteHits("", query: query, now: Self.now)
                    #expect(try await index.postgresHits("", query: query, now: Self.now) == sqlite, "\(query)")
                }
                let words = try FullTextQuery(text)
                guard !words.isEmpty else { continue }
                let sqlite = try await index.sqliteHits(text, now: Self.now)
                #expect(try await index.postgresHits(text, now: Self.now).sorted() == sqlite.sorted(), "\(text)")
            }
            // Still intact.
            #expect(try await index.postgresHits("lemon", now: Self.now).count == 3)
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }
}
