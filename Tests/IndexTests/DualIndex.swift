import FixtureServer
import Foundation
import GRDB
import Index
import Logging
import SearchQuery
import Store
import TestSupport
import Testing

/// The same public items in a SQLite store and in a PostgreSQL store (a fresh database on the test
/// process's shared cluster), written as each engine's publisher writes them; the PostgreSQL store's are
/// searched through its replica (``IndexReplica``, built into a temporary folder), as `search` and `serve`
/// search them.
struct DualIndex {
    let sqlite: IndexTestStore
    let store: SQLiteStore
    let postgres: PostgresStore
    let replica: IndexReplica
    let cache: String

    init(_ rows: [PublicItemRow]) async throws {
        sqlite = try IndexTestStore()
        store = try sqlite.open()
        try PublicItemRow.insert(rows, path: sqlite.path)
        try PublicItemRow.insertGrams(rows, path: sqlite.path)
        postgres = try await TestDatabases.make()
        for row in rows { try await row.insert(into: postgres) }
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

/// New databases on the test process's shared cluster, each a copy of one migrated template
/// (`CREATE DATABASE … TEMPLATE`), made through one database of their own.
///
/// A copy is up to date when the product opens it (one query), where migrating an empty database takes
/// about a hundred round trips; with hundreds of tests sharing a two-core machine each of those waits
/// its turn, and migrating every test's database took minutes of a whole-suite run. The migrations
/// themselves are tested on empty databases in `StoreTests`.
///
/// Only two processes are started (`createdb` for the template, `psql` for the maker): Foundation's
/// `Process.run` on Linux (Swift 6.3.1) can crash reading `/proc/self/fd` in a process with many files
/// open, as the whole suite's is (an over-read in `findMaximumOpenFromProcSelfFD`, fixed in
/// swift-corelibs-foundation after 6.3.1).
enum TestDatabases {
    /// The cluster, the migrated template and the database the others are made through.
    static let maker = Task { () async throws -> (PostgresCluster, String, PostgresStore) in
        let cluster = try await PostgresCluster.shared()
        let template = try await cluster.makeDatabase()
        await (try await PostgresStore.open(try location(cluster, template))).close()
        let makerName = template + "_maker"
        _ = try await cluster.psql("CREATE DATABASE \(makerName) TEMPLATE \(template)", database: "postgres")
        let maker = try await PostgresStore.open(try location(cluster, makerName))
        // Autovacuum does not visit a database that takes no connections, so it never holds the template
        // while a copy is made ("source database is being accessed by other users").
        _ = try await maker.rows("ALTER DATABASE \(template) WITH ALLOW_CONNECTIONS false")
        return (cluster, template, maker)
    }

    /// A new database with the current schema, as a store that was opened before.
    static func make() async throws -> PostgresStore {
        let (cluster, template, maker) = try await maker.value
        let name = "dual_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try await maker.rows("CREATE DATABASE \(name) TEMPLATE \(template)")
        return try await PostgresStore.open(try location(cluster, name))
    }

    private static func location(_ cluster: PostgresCluster, _ database: String) throws -> PostgresLocation {
        let url = cluster.url(database: database)
        guard case .postgres(let location) = try StoreLocation(parsing: url) else {
            throw DualIndexError(description: "\(url) is not a PostgreSQL location")
        }
        return location
    }
}

struct DualIndexError: Error, CustomStringConvertible {
    var description: String
}

extension PublicItemRow {
    /// Writes the row (and its cluster) into a PostgreSQL store, as the publisher writes them.
    func insert(into database: PostgresStore) async throws {
        _ = try await database.rows(
            """
            INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
            VALUES ($1, $2, '\\x00', TRUE, 'published', '[]', '[]')
            """, [.integer(id), .text("cluster-\(id)")])
        let keywordText = keywords.isEmpty ? nil : keywords.joined(separator: "\n")
        func text(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }
        func double(_ value: Double?) -> PostgresValue { value.map(PostgresValue.double) ?? .null }
        _ = try await database.rows(
            """
            INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, bundle, title, description,
                keywords, domain_identifier, rating, rating_count, engagement, boost, sources, expires_at, last_seen,
                published_at, item_json, title_fold)
            VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, $16, $17)
            """,
            [
                .integer(id), .text(uniqueIdentifier), text(url), text(bundle), .text(title), text(description),
                text(keywordText), text(domain), double(rating), ratingCount.map { .integer(Int64($0)) } ?? .null,
                .integer(Int64(engagement)), .double(boost), .text(sources), double(expiresAt), .double(lastSeen),
                .text(json), .text(SQLiteStore.foldedPrefix(title)),
            ])
    }

    /// Writes the gram index rows of `rows` into the SQLite store at `path`, as the publisher does.
    static func insertGrams(_ rows: [PublicItemRow], path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for row in rows {
                let keywords = row.keywords.isEmpty ? nil : row.keywords.joined(separator: "\n")
                guard let grams = GramText.row(title: row.title, description: row.description, keywords: keywords)
                else { continue }
                try db.execute(
                    sql: "INSERT INTO public_grams (rowid, title, description, keywords) VALUES (?, ?, ?, ?)",
                    arguments: [row.id, grams.title, grams.description, grams.keywords])
            }
        }
    }
}
