import FixtureServer
import Foundation
import GRDB
import Index
import Logging
import SearchQuery
import TestSupport
import Testing

@testable import Store

/// The same public items in a SQLite store and in a PostgreSQL store (a fresh database on the test
/// process's shared cluster), written as each engine's publisher writes them; the PostgreSQL store's are
/// searched through its replica (``IndexReplica``, built into a temporary folder), as `search` and `serve`
/// search them.
struct DualIndex {
    let sqlite: TemporaryStore
    let store: SQLiteStore
    let postgres: PostgresStore
    let replica: IndexReplica
    let cache: String

    init(_ rows: [TestItem]) async throws {
        sqlite = try TemporaryStore()
        store = try sqlite.open()
        try await TestItem.publish(rows, into: store)
        postgres = try await PostgresCluster.shared().makeStore()
        try await TestItem.publish(rows, into: postgres)
        cache = NSTemporaryDirectory() + "searchlight-replica-" + UUID().uuidString
        replica = try await IndexReplica.open(database: postgres, directory: cache, logger: Logger(label: "test"))
        _ = try await replica.sync()
    }

    /// What searches of the PostgreSQL store read.
    var postgresSource: SearchSource { .replica(replica) }

    func close() async {
        await postgres.close()
        sqlite.cleanUp()
        try? FileManager.default.removeItem(atPath: cache)
    }

    /// The unique identifiers SQLite's search returns, best first.
    func sqliteHits(_ text: String, query: String? = nil, now: Date) async throws -> [String] {
        try await PublicSearch(store: store).search(text, query: query, limit: PublicSearch.maxLimit, now: now).hits
            .map(\.uniqueIdentifier)
    }

    /// The unique identifiers the PostgreSQL search returns, best first.
    /// - Parameter context: named in the error when the search fails.
    func postgresHits(_ text: String, query: String? = nil, now: Date, context: String = "") async throws -> [String] {
        let results: SearchResults
        do {
            results = try await PublicSearch(source: postgresSource).search(
                text, query: query, limit: PublicSearch.maxLimit, now: now)
        } catch {
            throw DualIndexError(description: "\(context.prefix(80)): \(error)")
        }
        // Every match is counted, and here all of them fit in the page.
        #expect(!results.totalIsLowerBound && results.total == results.hits.count, "\(context)")
        return results.hits.map(\.uniqueIdentifier)
    }
}

struct DualIndexError: Error, CustomStringConvertible {
    var description: String
}
