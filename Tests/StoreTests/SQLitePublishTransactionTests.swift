import Foundation
import TestSupport
import Testing

@testable import Store

/// The SQLite publish transaction (``SQLitePublishTransaction``): the driver's calls run on the writer thread
/// that holds the transaction, an error on either side rolls everything back, and the store is free after.
@Suite struct SQLitePublishTransactionTests {
    struct DriverFailure: Error {}

    static func items(_ ids: ClosedRange<Int64>) -> [TestItem] {
        ids.map { TestItem(id: $0, title: "Item \($0)", url: "https://t.example/\($0)") }
    }

    static func itemCount(_ store: SQLiteStore) async throws -> Int {
        try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") ?? -1 }
    }

    /// Writes `items` through a publish whose driver then runs `after`.
    static func publish(_ items: [TestItem], into store: SQLiteStore, then after: @escaping @Sendable () throws -> Void)
        async throws
    {
        _ = try await store.publish(
            recordingEngagementThreshold: nil, expiryDays: nil, into: EmptyPublishSnapshot(), plan: { _ in items },
            itemCount: \.count,
            write: { items, transaction in
                _ = try await transaction.begin(
                    removing: [], rewriting: [], changedClusters: items.count, publishing: items.count)
                try await transaction.write(items.map { $0.clusterWrite(fullText: true) }, publishedAt: 0)
                try after()
                return try await transaction.finish(queueing: [], at: 0)
            })
    }

    @Test("a driver that fails after writing rolls the whole publish back; the next one commits")
    func driverFailureRollsBack() async throws {
        let temporary = try TemporaryStore()
        defer { temporary.cleanUp() }
        let store = try temporary.open()
        await #expect(throws: StoreError.self) {
            try await Self.publish(Self.items(1...50), into: store) { throw DriverFailure() }
        }
        #expect(try await Self.itemCount(store) == 0)
        try await Self.publish(Self.items(1...50), into: store) {}
        #expect(try await Self.itemCount(store) == 50)
    }

    @Test("a statement that fails on the writer thread reaches the driver and rolls back")
    func writerFailureReachesTheDriver() async throws {
        let temporary = try TemporaryStore()
        defer { temporary.cleanUp() }
        let store = try temporary.open()
        // Two clusters with one key: the second insert breaks the key's uniqueness.
        var twice = Self.items(1...2)
        twice[1].id = 1
        await #expect(throws: StoreError.self) {
            try await Self.publish(twice, into: store) {}
        }
        #expect(try await Self.itemCount(store) == 0)
        try await Self.publish(Self.items(1...3), into: store) {}
        #expect(try await Self.itemCount(store) == 3)
    }
}
