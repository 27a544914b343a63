import Foundation
import GRDB
import TestSupport
import Testing

@testable import Index
@testable import Store

/// A title-prefix query takes the folded-title shortcut and still finds exactly what a scan finds, also for
/// titles whose first letters fold into ASCII only through case folding (`ß` → `ss`, `ﬁ` → `fi`).
@Suite struct TitlePrefixHintTests {
    static let titles = [
        "Lemon tart", "lemonade stand", "Straße plan", "Strasse map", "ﬁsh soup", "fish pie", "Crème brûlée",
        "creme caramel", "  lemon with spaces", "LEMON curd", "le mon", "Ælfric", "aelfric", "Sßx", "sssx",
        "Hömupa", "HOMUPA tea", "ho\u{0308}mupa", "homúpa", "hömupa",
    ]

    static let queries = [
        #"title == "lemon*"cd"#, #"title == "lemon*""#, #"title == "stras*"cd"#, #"title == "stras*"c"#,
        #"title == "fish*"cd"#, #"title == "fi*"c"#, #"title == "cre*"cd"#, #"title == "ae*"cd"#,
        #"title == "sss*"cd"#, #"title == "le*"cd && engagement >= 0"#, #"title == "lemon tart"cd"#,
        #"title == "lemon*"w"#, #"title == "LEMON*""#, #"title == "lemon*"cd && engagement >= 1"#,
        #"title == "lemon*"cd && title == "lemon*"cd"#, #"title == "straße*"cd"#, #"title == "cre*"c"#,
        #"title == "hömupa*"cd"#, #"title == "hömupa*"c"#, #"title == "Hö*""#, #"title == "crè*"cd"#,
        #"title == "ÆL*"cd"#,
        #"title == "le*"cd && title != "le mon""#,
    ]

    @Test(arguments: queries)
    func shortcutFindsWhatAScanFinds(query: String) async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines = Self.titles.enumerated().map { index, title in
            activityLine(
                donor: "d",
                [
                    "title": title, "persistentIdentifier": "p\(index)", "userInfo": ["id": "\(index)"],
                    "requiredUserInfoKeys": ["id"],
                ])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)], threshold: 1)
        _ = try await store.publish()
        let compiled = try PublicQuery(query)
        let expected = try await store.open().pool.read { db in
            try Set(
                String.fetchAll(
                    db, sql: "SELECT item.unique_identifier FROM public_item AS item WHERE \(compiled.sql)",
                    arguments: compiled.statementArguments))
        }
        // Compared by identifier: titles that differ only in normalization (`ö`, `o` + U+0308) are equal
        // Swift strings.
        let results = try await PublicSearch(store: store.open()).search("", query: query, limit: 100)
        #expect(Set(results.hits.map(\.uniqueIdentifier)) == expected, "\(query)")
        #expect(results.total == expected.count)
    }

    /// Only `cd` with letters and digits and one final `*` is decided by the folded prefix alone; the
    /// rest of the query is what the rows must still pass.
    @Test(
        arguments: [
            (#"title == "lemon*"cd"#, true, "1"), (#"title == "lemon*"c"#, false, nil),
            (#"title == "lemon*""#, false, nil),
            (#"title == "le?on*"cd"#, false, nil), (#"title == "lemon"cd"#, false, nil),
            (#"title == "lemon*"cdw"#, false, nil),
            (#"title == "abcdefghijklmnopq*"cd"#, false, nil), (#"title == "abcdefghijklmnop*"cd"#, true, "1"),
            (#"rating > 2 && title == "lemon*"cd"#, true, "(item.rating > ?)"),
            (#"title == "lemon*"cd && title == "lemon*"cd"#, true, "1"), (#"title == "hömupa*"cd"#, true, "1"),
            (#"title == "hömupa*"c"#, false, nil),
        ] as [(String, Bool, String?)])
    func exactHintsLeaveTheRest(query: String, isExact: Bool, residual: String?) throws {
        let compiled = try PublicQuery(query)
        #expect((compiled.titleHint?.isExact ?? false) == isExact, "\(query)")
        #expect(compiled.residual?.sql == residual, "\(query)")
    }

    @Test func hintsOnlyWhatItCanBound() throws {
        #expect(try PublicQuery(#"title == "lemon*"cd && rating > 2"#).titleHint?.word == "lemon")
        #expect(try PublicQuery(#"title == "Le*" && title == "LEMON t*"c"#).titleHint?.word == "lemon")
        #expect(
            try PublicQuery(#"title == "Lemon*"c"#).titleHint.map { [$0.foldedRange.lower, $0.foldedRange.upper] } == [
                "lemon", "lemoo",
            ])
        #expect(try PublicQuery(#"title == "lemon*"w"#).titleHint == nil)
        #expect(try PublicQuery(#"title == "l*"cd"#).titleHint == nil)
        #expect(try PublicQuery(#"title == "lemon*"cd || rating > 2"#).titleHint == nil)
        #expect(try PublicQuery(#"title == "*lemon"cd"#).titleHint == nil)
    }
}
