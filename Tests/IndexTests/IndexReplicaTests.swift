import Foundation
import GRDB
import Index
import Logging
import Testing

@testable import Store

/// A PostgreSQL store's search replica (``IndexReplica``) against the store it copies, through the real
/// publisher on a real PostgreSQL database: each publish reaches the replica whole, and every replica that
/// cannot be brought forward — pruned history, another store's file, a damaged file — is rebuilt, never
/// answered from.
@Suite("The search replica of a PostgreSQL store", .timeLimit(.minutes(3)))
struct IndexReplicaTests {
    /// A PostgreSQL store under test with a replica in a folder of its own.
    struct Fixture {
        let store: DonationStoreUnderTest
        let database: PostgresStore
        let cache: String

        static func make() async throws -> Fixture {
            let store = try await DonationStoreUnderTest.make(.postgres)
            let database = try #require(store.store as? PostgresStore)
            return Fixture(
                store: store, database: database, cache: store.files.folder.appendingPathComponent("cache").path)
        }

        func replica(in folder: String? = nil) async throws -> IndexReplica {
            try await IndexReplica.open(database: database, directory: folder ?? cache, logger: quietLogger)
        }

        /// The titles the replica finds for `text`, sorted.
        func titles(_ replica: IndexReplica, _ text: String) async throws -> [String] {
            try await PublicSearch(source: .replica(replica)).search(text, limit: 100).hits.map(\.title).sorted()
        }

        func cleanUp() async { await store.cleanUp() }
    }

    @Test("a publish's items and removals reach the replica with its generation; nothing new is one query")
    func publishesReachTheReplica() async throws {
        let fixture = try await Fixture.make()
        let store = fixture.store
        _ = try await store.importLines(
            PublishTests.infoActivities("1", title: "Lemon tart") + PublishTests.infoActivities("2", title: "Rye loaf"))
        _ = try await store.publish()
        let replica = try await fixture.replica()
        let first = try await replica.sync()
        #expect(first.rebuilt == .missing && first.from == nil && first.written == 2)
        #expect(try await fixture.titles(replica, "lemon") == ["Lemon tart"])

        // A changed title rewrites its cluster: the old item id is removed, a new one written.
        _ = try await store.importLines(PublishTests.infoActivities("2", title: "Rye bread"), name: "b.jsonl")
        _ = try await store.publish()
        let second = try await replica.sync()
        #expect(second.rebuilt == nil && second.from == first.generation)
        #expect(second.generation == first.generation + 1 && second.written == 1 && second.removed == 1)
        #expect(try await fixture.titles(replica, "rye") == ["Rye bread"])
        #expect(try await fixture.titles(replica, "loaf").isEmpty)

        // A publish that changes nothing makes no generation; a sync then changes nothing.
        _ = try await store.publish()
        let idle = try await replica.sync()
        #expect(idle.generation == second.generation && idle.written == 0 && idle.removed == 0 && idle.rebuilt == nil)

        // Items past their expiry leave the index at the next publish, and the replica with it.
        _ = try await store.publish(now: Date().addingTimeInterval(40 * 86_400))
        let expired = try await replica.sync()
        #expect(expired.removed == 2 && expired.written == 0)
        #expect(try await fixture.titles(replica, "lemon").isEmpty)
        #expect(
            try await replica.store().read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM public_fts") } == 0)
        await fixture.cleanUp()
    }

    @Test("a replica older than the store's kept history is rebuilt")
    func prunedHistoryRebuilds() async throws {
        let fixture = try await Fixture.make()
        _ = try await fixture.store.importLines(PublishTests.infoActivities("1", title: "Lemon tart"))
        _ = try await fixture.store.publish()
        let replica = try await fixture.replica()
        _ = try await replica.sync()
        _ = try await fixture.store.importLines(PublishTests.infoActivities("1", title: "Lime tart"), name: "b.jsonl")
        _ = try await fixture.store.publish()
        // What a publish does past `IndexGeneration.keptGenerations`: removals pruned, the floor raised.
        try await fixture.store.execute("DELETE FROM public_item_removal")
        try await fixture.store.execute(
            "UPDATE setting SET value = (SELECT value FROM setting WHERE name = 'index_generation') "
                + "WHERE name = 'index_history_from'")
        let sync = try await replica.sync()
        #expect(sync.rebuilt == .historyPruned)
        #expect(try await fixture.titles(replica, "tart") == ["Lime tart"])
        // The old file goes at the next sync (no search can still be starting on it then): only the new one
        // is left.
        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: fixture.cache).filter { $0.hasSuffix(".sqlite") }
        }
        #expect(try files().count == 2)
        _ = try await replica.sync()
        let left = try files()
        #expect(left.count == 1, "\(left)")
        await fixture.cleanUp()
    }

    @Test("a replica file of another store is refused and rebuilt, never answered from")
    func foreignReplicaIsRebuilt() async throws {
        let mine = try await Fixture.make()
        let other = try await Fixture.make()
        _ = try await mine.store.importLines(PublishTests.infoActivities("1", title: "Lemon tart"))
        _ = try await mine.store.publish()
        _ = try await other.store.importLines(PublishTests.infoActivities("9", title: "Foreign fig"))
        _ = try await other.store.publish()
        let otherReplica = try await other.replica()
        _ = try await otherReplica.sync()

        // The other store's file, put where this store's replica lives under the name it would have.
        let replica = try await mine.replica()
        _ = try await replica.sync()
        let path = try #require(replica.path)
        let copied = try await mine.replica(in: mine.cache + "-copied")
        try FileManager.default.createDirectory(atPath: mine.cache + "-copied", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try #require(otherReplica.path),
            toPath: mine.cache + "-copied/" + URL(fileURLWithPath: path).lastPathComponent)
        #expect(await copied.openWithoutSync() == false)
        let sync = try await copied.sync()
        #expect(sync.rebuilt == .missing)
        #expect(try await mine.titles(copied, "fig").isEmpty)
        #expect(try await mine.titles(copied, "lemon") == ["Lemon tart"])
        await mine.cleanUp()
        await other.cleanUp()
    }

    @Test("a damaged replica file is rebuilt")
    func damagedReplicaIsRebuilt() async throws {
        let fixture = try await Fixture.make()
        _ = try await fixture.store.importLines(PublishTests.infoActivities("1", title: "Lemon tart"))
        _ = try await fixture.store.publish()
        let built = try await fixture.replica()
        _ = try await built.sync()
        let path = try #require(built.path)
        // Another process starts from the file, overwritten with bytes that are not a database.
        try Data(repeating: 0x5A, count: 64 * 1024).write(to: URL(fileURLWithPath: path))
        let replica = try await fixture.replica()
        let sync = try await replica.sync()
        #expect(sync.rebuilt == .missing)
        #expect(try await fixture.titles(replica, "lemon") == ["Lemon tart"])
        await fixture.cleanUp()
    }

    @Test("the replica file holds nothing below the threshold, ineligible or expired")
    func replicaHoldsOnlyThePublicIndex() async throws {
        let fixture = try await Fixture.make()
        let lines =
            PublishTests.infoActivities("1", title: "PUBLIC-TITLE")
            + PublishTests.infoActivities("2", title: "BELOW-THRESHOLD-TITLE", donors: ["a", "b"])
            + ["a", "b", "c"].map { donor in
                activityLine(
                    donor: donor,
                    [
                        "title": "INELIGIBLE-TITLE", "persistentIdentifier": "3", "userInfo": ["id": "3"],
                        "requiredUserInfoKeys": ["id"], "isEligibleForPublicIndexing": false,
                    ])
            }
            + ["a", "b", "c"].map { donor in
                activityLine(
                    donor: donor,
                    [
                        "title": "EXPIRED-TITLE", "persistentIdentifier": "4", "userInfo": ["id": "4"],
                        "requiredUserInfoKeys": ["id"], "expirationDate": "2001-01-01T00:00:00Z",
                    ])
            }
        _ = try await fixture.store.importLines(lines, threshold: 3)
        _ = try await fixture.store.publish()
        let replica = try await fixture.replica()
        _ = try await replica.sync()
        let path = try #require(replica.path)
        // The file and its WAL, as any program reading the folder sees them.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes += (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
        #expect(bytes.range(of: Data("PUBLIC-TITLE".utf8)) != nil)
        for secret in ["BELOW-THRESHOLD-TITLE", "INELIGIBLE-TITLE", "EXPIRED-TITLE"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the replica file")
        }
        await fixture.cleanUp()
    }
}
