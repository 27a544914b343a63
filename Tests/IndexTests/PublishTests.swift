import Foundation
import GRDB
import Index
import TestSupport
import Testing

@Suite struct PublishTests {
    static func infoActivities(_ id: String, title: String, donors: [String] = ["a", "b", "c"]) -> [String] {
        donors.map { donor in
            activityLine(
                donor: donor,
                ["title": title, "persistentIdentifier": id, "userInfo": ["id": id], "requiredUserInfoKeys": ["id"]])
        }
    }

    @Test func publishIsIncremental() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines = Self.infoActivities("1", title: "Lemon tart") + Self.infoActivities("2", title: "Rye loaf")
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        let first = try await store.publish()
        #expect(first.published == 2)
        #expect(first.changedClusters == 2)
        let second = try await store.publish()
        #expect(second.changedClusters == 0)
        #expect(second.unchangedClusters == 2)
        #expect(second.published == 2)
        let changed = Self.infoActivities("2", title: "Rye bread")
        _ = try await store.importFiles([try donationFile(changed, in: store, name: "b.jsonl")])
        let third = try await store.publish()
        #expect(third.changedClusters == 1)
        #expect(
            try store.readOnly { db in try String.fetchAll(db, sql: "SELECT title FROM public_item ORDER BY title") }
                == ["Lemon tart", "Rye bread"])
        let hits = try store.readOnly { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT p.title FROM public_fts f JOIN public_item p ON p.id = f.rowid WHERE public_fts MATCH 'bread'"
            )
        }
        #expect(hits == ["Rye bread"])
        // The full-text index matches its content table exactly (FTS5 checks every row and term).
        let queue = try DatabaseQueue(path: store.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO public_fts (public_fts, rank) VALUES ('integrity-check', 1)")
        }
        try queue.close()
        #expect(try store.count("SELECT count(*) FROM setting WHERE name = 'fts_bulk'") == 0)
    }

    /// Items not seen for the expiry period leave the index; an expirationDate ends an item earlier.
    @Test func itemsExpire() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let now = Date()
        var lines = Self.infoActivities("1", title: "Lemon tart")
        let soon = now.addingTimeInterval(86_400).formatted(.iso8601)
        lines += ["a", "b", "c"].map { donor in
            activityLine(
                donor: donor,
                [
                    "title": "Short-lived", "persistentIdentifier": "2", "userInfo": ["id": "2"],
                    "requiredUserInfoKeys": ["id"], "expirationDate": soon,
                ])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)], now: now)
        #expect(try await store.publish(now: now).published == 2)
        let later = try await store.publish(now: now.addingTimeInterval(2 * 86_400))
        #expect(later.published == 1)
        #expect(later.withheld["expired"] == 1)
        #expect(later.changedClusters == 1)
        let muchLater = try await store.publish(now: now.addingTimeInterval(31 * 86_400))
        #expect(muchLater.published == 0)
        #expect(muchLater.withheld["stale"] == 1)
    }

    /// Readers keep the previous index while a publish writes (WAL snapshot isolation).
    @Test func readersSeeThePreviousIndexUntilCommit() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        _ = try await store.importFiles([try donationFile(Self.infoActivities("1", title: "Lemon tart"), in: store)])
        _ = try await store.publish()
        let reader = try DatabasePool(path: store.path)
        _ = try await store.importFiles([
            try donationFile(Self.infoActivities("2", title: "Rye"), in: store, name: "b.jsonl")
        ])
        // A snapshot is a read transaction held open across the publish.
        let snapshot = try reader.makeSnapshot()
        #expect(try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") } == 1)
        _ = try await store.publish()
        #expect(try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") } == 1)
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") } == 2)
    }
}

@Suite struct EngagementTests {
    /// Engagement is distinct donors of the cluster: one donor of two linked activities counts once.
    @Test(arguments: StoreEngine.allCases)
    func donorsOfSeveralActivitiesCountOnce(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        var lines = [#"{"type":"searchableItem","bundleIdentifier":"com.example.recipes","uniqueIdentifier":"r-1"}"#]
        for (type, donors) in [("view", ["a", "b", "c"]), ("cook", ["a", "b", "d"])] {
            lines += donors.map { donor in
                activityLine(
                    donor: donor,
                    [
                        "activityType": "com.example.recipes.\(type)", "title": "Lemon tart",
                        "persistentIdentifier": "r-1",
                        "userInfo": ["id": "1"], "requiredUserInfoKeys": ["id"],
                        "contentAttributeSet": ["relatedUniqueIdentifier": "r-1"],
                    ])
            }
        }
        _ = try await store.importLines(lines)
        let summary = try await store.publish()
        #expect(summary.published == 1)
        #expect(try await store.count("SELECT engagement FROM public_item") == 4)
    }
}
