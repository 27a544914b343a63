import Foundation
import GRDB
import SearchQuery
import TestSupport
import Testing

@testable import Index
@testable import Store

/// A query on an indexed number reads a rare value through its index and a common one in rank order;
/// both find exactly what a scan finds.
@Suite struct NumberHintTests {
    static let queries = [
        "engagement >= 4", "engagement == 1", "InRange(engagement, 2, 3)", "rating > 4",
        "rating <= 1 && engagement > 2",
        #"engagement > 3 && title == "item*"c"#, "engagement != 2",
        // A least engagement also bounds the ids (ItemRankOrder): every edge of the donor counts 1–5.
        "engagement > 1", "engagement > 2.5", "engagement >= 3 && rating > 1", "engagement == 5",
        "InRange(engagement, 4, 9)", #"title == "item 1*"c && engagement >= 2"#,
    ]

    /// The least engagement a query implies, from `&&`-joined comparisons only.
    @Test(
        arguments: [
            ("engagement > 10", 11.0), ("engagement > 10.5", 11), ("engagement >= 10.5", 11), ("engagement == 7", 7),
            ("InRange(engagement, 3, 9)", 3), ("engagement > 2 && engagement >= 40", 40),
            (#"rating > 4 && (engagement > 2 && title == "a*")"#, 3), ("engagement > 2 || rating > 4", nil),
            ("!(engagement < 3)", nil), ("engagement < 30", nil), ("engagement != 3", nil), ("rating > 4", nil),
        ] as [(String, Double?)])
    func leastEngagement(query: String, least: Double?) throws {
        let compiled = try PublicQuery(query)
        #expect(PublicQuery.leastEngagement(try QueryParser.parse(query)) == least)
        #expect(compiled.rankBound == least.flatMap(ItemRankOrder.idBound(engagementAtLeast:)))
    }

    @Test(arguments: queries, [1, 10_000])
    func indexPathFindsWhatAScanFinds(query: String, countLimit: Int) async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        var lines: [String] = []
        for index in 0..<60 {
            for donor in 0..<(index % 5 + 1) {
                lines.append(
                    activityLine(
                        donor: "d\(donor)",
                        [
                            "title": "Item \(index)", "persistentIdentifier": "p\(index)",
                            "userInfo": ["id": "\(index)"],
                            "requiredUserInfoKeys": ["id"], "contentAttributeSet": ["rating": Double(index % 6)],
                        ]))
            }
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)], threshold: 1)
        _ = try await store.publish()
        let compiled = try PublicQuery(query)
        #expect((compiled.numberHint != nil) == !query.hasPrefix("engagement !="))
        let expected = try await store.open().pool.read { db in
            try Set(
                String.fetchAll(
                    db, sql: "SELECT item.title FROM public_item AS item WHERE \(compiled.sql)",
                    arguments: compiled.statementArguments))
        }
        // countLimit 1 makes every number condition "common": the rank-order path runs instead.
        let limits = PublicSearch.Limits(exactRank: 1_000, count: countLimit, wordRank: 20_000)
        let results = try await PublicSearch(store: store.open(), limits: limits).search("", query: query, limit: 100)
        #expect(Set(results.hits.map(\.title)) == expected, "\(query)")
        #expect(!expected.isEmpty)
    }
}
