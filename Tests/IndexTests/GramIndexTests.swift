import Foundation
import GRDB
import Index
import TestSupport
import Testing

@testable import Store

/// The gram index follows the published items: filled in the publish's transaction, rewritten by
/// incremental publishes, emptied of what is removed, and built for items published before it existed.
@Suite struct GramIndexTests {
    static func item(_ id: String, title: String, description: String? = nil, donors: Int = 3) -> [String] {
        GramSearchTests.item(id, title: title, description: description, donors: donors)
    }

    /// An item a deletion record can remove: a searchable item, and activities related to it.
    static func deletableItem(_ id: String, title: String) -> [String] {
        let searchable =
            #"{"type":"searchableItem","bundleIdentifier":"com.example.recipes","uniqueIdentifier":"\#(id)"}"#
        return [searchable]
            + ["x", "y", "z"].map { donor in
                activityLine(
                    donor: donor,
                    [
                        "persistentIdentifier": id, "userInfo": ["id": id], "requiredUserInfoKeys": ["id"],
                        "contentAttributeSet": ["relatedUniqueIdentifier": id, "title": title],
                    ])
            }
    }

    static func titles(_ store: TemporaryStore, _ text: String, limits: PublicSearch.Limits = .standard)
        async throws -> [String]
    {
        try await PublicSearch(store: try store.open(), limits: limits).search(text).hits.map(\.title)
    }

    /// The ids of the gram index, and whether FTS5 finds it consistent.
    static func gramRows(_ store: TemporaryStore) throws -> [Int64] {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO public_grams (public_grams, rank) VALUES ('integrity-check', 1)")
        }
        return try queue.read { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM public_grams ORDER BY rowid") }
    }

    static func itemIDs(_ store: TemporaryStore, titled titles: [String]) throws -> [Int64] {
        try store.readOnly { db in
            try Int64.fetchAll(
                db,
                sql: "SELECT id FROM public_item WHERE title IN (\(titles.map { _ in "?" }.joined(separator: ","))) "
                    + "ORDER BY id", arguments: StatementArguments(titles))
        }
    }

    @Test func publishesKeepTheGramIndexInStep() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let first =
            Self.item("1", title: "京都の港ガイド") + Self.deletableItem("2", title: "我爱北京天安门")
            + Self.item("3", title: "Lemon tart") + Self.item("4", title: "Rye loaf", description: "ライ麦パン")
        _ = try await store.importFiles([try donationFile(first, in: store)])
        _ = try await store.publish()
        // Only the items with text written without spaces have a row.
        #expect(try Self.gramRows(store) == Self.itemIDs(store, titled: ["京都の港ガイド", "我爱北京天安门", "Rye loaf"]))
        #expect(try await Self.titles(store, "ガイド") == ["京都の港ガイド"])
        #expect(try await Self.titles(store, "麦パン") == ["Rye loaf"])

        // A changed title is written again; the unchanged items keep their rows.
        let changed = Self.item("1", title: "大阪の港案内")
        _ = try await store.importFiles([try donationFile(changed, in: store, name: "b.jsonl")])
        #expect(try await store.publish().changedClusters == 1)
        #expect(try await Self.titles(store, "ガイド").isEmpty)
        #expect(try await Self.titles(store, "港案内") == ["大阪の港案内"])
        #expect(try await Self.titles(store, "北京") == ["我爱北京天安门"])
        #expect(try Self.gramRows(store) == Self.itemIDs(store, titled: ["大阪の港案内", "我爱北京天安门", "Rye loaf"]))

        // A deleted item leaves the gram index at the next publish.
        let deletion = #"{"type":"delete","bundleIdentifier":"com.example.recipes","uniqueIdentifiers":["2"]}"#
        _ = try await store.importFiles([try donationFile([deletion], in: store, name: "d.jsonl")])
        _ = try await store.publish()
        #expect(try await Self.titles(store, "北京").isEmpty)
        #expect(try Self.gramRows(store) == Self.itemIDs(store, titled: ["大阪の港案内", "Rye loaf"]))
        #expect(try store.count("SELECT count(*) FROM setting WHERE name = 'fts_bulk'") == 0)
    }

    /// Exact ranking (bm25 over the pairs, plus the engagement boost) and the tiered ranking of large
    /// match sets agree: a title match first, then by engagement.
    @Test func gramMatchesRankLikeWordMatches() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines =
            Self.item("1", title: "北港ガイド", donors: 3) + Self.item("2", title: "南港ガイド", donors: 4)
            + Self.item("3", title: "Harbour", description: "港ガイドの本", donors: 5)
            // Items without the word, so that it is rare enough for bm25 to weigh (FTS5 gives a word of
            // more than half of the items the least weight there is).
            + ["一", "二", "三", "四", "五", "六", "七", "八"].enumerated().flatMap { index, numeral in
                Self.item("f\(index)", title: "夜景の写真\(numeral)")
            }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        _ = try await store.publish()
        let expected = ["南港ガイド", "北港ガイド", "Harbour"]
        let exact = try await Self.titles(store, "ガイド")
        #expect(exact == expected)
        let tiered = PublicSearch.Limits(exactRank: 1, count: 1, wordRank: 1)
        let byTier = try await Self.titles(store, "ガイド", limits: tiered)
        #expect(byTier == expected)
        let results = try await PublicSearch(store: try store.open()).search("港ガイド")
        #expect(results.total == 3)
        #expect(results.hits.map(\.score) == results.hits.map(\.score).sorted(by: >))
    }

    /// Writes outside the publisher: a deleted item's row goes, a renumbered item's row follows it, and
    /// an item whose text changed loses its row rather than be found by words it no longer has.
    @Test func triggersNeverLeaveRowsForWhatIsGone() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines = Self.item("1", title: "京都の港ガイド") + Self.item("2", title: "我爱北京天安门")
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        _ = try await store.publish()
        let ids = try Self.itemIDs(store, titled: ["京都の港ガイド", "我爱北京天安门"])
        let queue = try DatabaseQueue(path: store.path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE public_item SET item_json = item_json WHERE id = ?", arguments: [ids[0]])
            try db.execute(sql: "UPDATE public_item SET id = 5 WHERE id = ?", arguments: [ids[0]])
        }
        try queue.close()
        #expect(try Self.gramRows(store) == [5, ids[1]].sorted())
        let moved = try store.readOnly { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM public_grams WHERE public_grams MATCH '\"ガイ イド\"'")
        }
        #expect(moved == [5])
        let again = try DatabaseQueue(path: store.path)
        try await again.write { db in
            try db.execute(sql: "UPDATE public_item SET title = 'Plain' WHERE id = 5")
            try db.execute(sql: "DELETE FROM public_item WHERE id = ?", arguments: [ids[1]])
        }
        try again.close()
        #expect(try Self.gramRows(store).isEmpty)
    }

    /// A store at the previous schema version (v8) gets a gram index of the items it already has.
    @Test func olderStoresGetTheGramIndexOfTheirItems() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let queue = try DatabaseQueue(path: store.path)
        try SQLiteStore.migrator.migrate(queue, upTo: "v8-search-indexes")
        try await queue.write { db in
            for (id, title) in [(1, "京都の港ガイド"), (2, "Lemon tart"), (3, "ภาษาไทย")] {
                try db.execute(
                    sql: """
                        INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
                        VALUES (?, ?, x'00', 1, 'published', '[]', '[]');
                        INSERT INTO public_item (id, cluster_id, unique_identifier, title, description, keywords,
                            engagement, boost, sources, last_seen, published_at, item_json, title_fold)
                        VALUES (?, ?, ?, ?, NULL, ?, 3, 1.4, 'web', 0, 0, '{}', '');
                        """,
                    arguments: [
                        id, "k\(id)", ItemRankOrder.id(boost: 1.4, sequence: Int64(id)), id, "u\(id)", title,
                        id == 2 ? "夜景" : nil,
                    ])
            }
        }
        try queue.close()
        #expect(try await Self.titles(store, "ガイド") == ["京都の港ガイド"])
        #expect(try await Self.titles(store, "夜景") == ["Lemon tart"])
        #expect(try await Self.titles(store, "ภาษา") == ["ภาษาไทย"])
        #expect(try Self.gramRows(store).count == 3)
        // The upgraded store publishes into it like a new one.
        _ = try await store.importFiles([try donationFile(Self.item("9", title: "東京タワー"), in: store)])
        _ = try await store.publish()
        #expect(try await Self.titles(store, "タワー") == ["東京タワー"])
    }
}
