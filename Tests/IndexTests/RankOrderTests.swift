import Foundation
import GRDB
import Index
import TestSupport
import Testing

@testable import Store

/// Item ids follow static rank (ItemRankOrder): the publisher numbers items by boost bucket, then
/// publication order, also across incremental publishes; older stores are re-numbered once.
@Suite struct RankOrderTests {
    static func item(_ id: String, title: String, donors: Int) -> [String] {
        PublishTests.infoActivities(id, title: title, donors: (0..<donors).map { "donor-\($0)" })
    }

    @Test func idBucketsAndSequence() {
        #expect(ItemRankOrder.bucket(boost: 0) == 0)
        #expect(ItemRankOrder.bucket(boost: 0.24) == 0)
        #expect(ItemRankOrder.bucket(boost: 0.25) == 1)
        #expect(ItemRankOrder.bucket(boost: log(4.0)) == 5)
        #expect(ItemRankOrder.bucket(boost: 1_000) == 63)
        #expect(ItemRankOrder.bucket(boost: -1) == 0)
        #expect(ItemRankOrder.bucket(boost: .nan) == 0)
        #expect(ItemRankOrder.id(boost: 1_000, sequence: 9) == 9)
        #expect(ItemRankOrder.id(boost: 0, sequence: 9) == 63 << 40 | 9)
        #expect(ItemRankOrder.id(boost: 2, sequence: 1) < ItemRankOrder.id(boost: 1.9, sequence: 0))
        #expect(ItemRankOrder.bucket(id: ItemRankOrder.id(boost: 2, sequence: 77)) == 8)
    }

    /// `idBound(engagementAtLeast:)` keeps every item with at least that engagement (whatever its
    /// sequence, also ids below the top bucket's edge) and, past the first buckets, leaves out the
    /// items of the lower buckets, which are what make it worth adding to a search.
    @Test func engagementBoundKeepsEveryItemAtOrAboveIt() {
        let engagements = Array(0...400) + [999, 1_000, 1_001, 54_597, 54_598, 1 << 40]
        for least in engagements {
            guard let bound = ItemRankOrder.idBound(engagementAtLeast: Double(least)) else {
                #expect(least == 0, "only engagements within the lowest bucket bound nothing: \(least)")
                continue
            }
            for engagement in engagements {
                let id = ItemRankOrder.id(boost: log(1 + Double(engagement)), sequence: ItemRankOrder.maxSequence)
                if engagement >= least { #expect(id < bound, "\(engagement) ≥ \(least)") }
                // Two buckets below the least one (the bound keeps the edge bucket whole, one notch low).
                if ItemRankOrder.bucket(boost: log(1 + Double(engagement))) + 2
                    <= ItemRankOrder.bucket(boost: log(1 + Double(least)))
                {
                    #expect(id >= bound, "\(engagement) is left out for \(least)")
                }
            }
            #expect(Int64(1) << ItemRankOrder.sequenceBits <= bound)  // small ids (tests' rows) always pass
        }
        #expect(ItemRankOrder.idBound(engagementAtLeast: 0) == nil)
        #expect(ItemRankOrder.idBound(engagementAtLeast: -5) == nil)
        #expect(ItemRankOrder.idBound(engagementAtLeast: .nan) == nil)
        #expect(ItemRankOrder.idBound(engagementAtLeast: .infinity) == 1 << ItemRankOrder.sequenceBits)
    }

    /// More engaged first in id (and so FTS5 rowid) order; equal buckets in publication order,
    /// including items added by a later, incremental publish.
    @Test func publisherNumbersItemsByBoostThenSequence() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let first = Self.item("a", title: "Recipe alpha", donors: 3) + Self.item("b", title: "Recipe beta", donors: 12)
        _ = try await store.importFiles([try donationFile(first, in: store)])
        #expect(try await store.publish().published == 2)
        let second =
            Self.item("c", title: "Recipe gamma", donors: 40) + Self.item("d", title: "Recipe delta", donors: 3)
        _ = try await store.importFiles([try donationFile(second, in: store, name: "b.jsonl")])
        let summary = try await store.publish()
        #expect(summary.published == 4)
        #expect(summary.changedClusters == 2)
        let byID = try store.readOnly { db in
            try Row.fetchAll(db, sql: "SELECT id, title, engagement FROM public_item ORDER BY id")
        }
        #expect(byID.map { $0["title"] as String } == ["Recipe gamma", "Recipe beta", "Recipe alpha", "Recipe delta"])
        #expect(byID.map { ItemRankOrder.bucket(id: $0["id"]) } == [14, 10, 5, 5])
        let ftsOrder = try store.readOnly { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM public_fts WHERE public_fts MATCH 'recipe'")
        }
        #expect(ftsOrder == byID.map { $0["id"] as Int64 })
        let next = try store.readOnly { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'item_sequence'")
        }
        #expect(next == "5")
        // Tiered (the limits lowered to 1): title matches in boost order, equal boosts by id.
        let limits = PublicSearch.Limits(exactRank: 1, count: 1, wordRank: 1)
        let results = try await PublicSearch(store: try store.open(), limits: limits).search("recipe")
        #expect(results.totalIsLowerBound)
        #expect(results.total == 2)
        #expect(results.hits.map(\.title) == ["Recipe gamma", "Recipe beta", "Recipe alpha", "Recipe delta"])
    }

    /// A store whose items were numbered 1, 2, 3… gets rank-ordered ids once, FTS5 included.
    @Test func olderStoresAreRenumbered() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        _ = try store.open()
        try await TestItem.publish(
            [
                TestItem(id: 1, title: "Plain one", boost: 0),
                TestItem(id: 2, title: "Plain two", boost: 3),
                TestItem(id: 3, title: "Plain three", boost: 100),
            ], into: try SQLiteStore(path: store.path))
        let queue = try DatabaseQueue(path: store.path)
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3-rank-order'")
        }
        _ = try store.open()
        let ids = try store.readOnly { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM public_fts WHERE public_fts MATCH 'plain'")
        }
        #expect(ids == [3, 51 << 40 | 2, 63 << 40 | 1])
        #expect(
            try store.readOnly { db in
                try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'item_sequence'")
            } == "4")
    }
}
