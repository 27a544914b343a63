import FixtureServer
import Foundation
import GRDB
import PostgresNIO
import Testing

@testable import Store

/// The migration that renormalizes stored frontier URLs (SQLite `v14-whatwg-crawl-url`, PostgreSQL
/// `v6-whatwg-crawl-url`), run on a store written before it, on both engines.
@Suite("Frontier URLs renormalized by migration")
struct CrawlURLMigrationTests {
    /// Rows as the crawler stored them before (`url`, `host`, `url_key`), oldest first.
    static let oldRows: [(url: String, host: String, key: String?)] = [
        ("https://example.com/q?a='b'", "https://example.com", "https://example.com/q?a=%27b%27"),
        ("http://[::ffff:1.2.3.4]/", "http://[::ffff:1.2.3.4]", "http://[::ffff:102:304]/"),
        // Two spellings of one resource, the later one unkeyed; its new spelling is the other's URL.
        ("https://example.com/c?x=%271%27", "https://example.com", "https://example.com/c?x=%271%27"),
        ("https://example.com/c?x='1'", "https://example.com", nil),
        // The same, the older one unkeyed: it takes the key, the younger one keeps its URL.
        ("https://example.com/d?x='1'", "https://example.com", nil),
        ("https://example.com/d?x=%271%27", "https://example.com", "https://example.com/d?x=%271%27"),
        // A key the importer gave (not the URL's own) stays.
        ("https://example.com/e?y='z'", "https://example.com", "https://example.com/e?y='z'"),
        ("https://example.com/plain", "https://example.com", "https://example.com/plain"),
    ]

    /// `url | host | url_key` of every row after the migration, oldest first.
    static let expected = [
        "https://example.com/q?a=%27b%27 | https://example.com | https://example.com/q?a=%27b%27",
        "http://[::ffff:102:304]/ | http://[::ffff:102:304] | http://[::ffff:102:304]/",
        "https://example.com/c?x=%271%27 | https://example.com | https://example.com/c?x=%271%27",
        "https://example.com/c?x='1' | https://example.com | NULL",
        "https://example.com/d?x='1' | https://example.com | https://example.com/d?x=%271%27",
        "https://example.com/d?x=%271%27 | https://example.com | NULL",
        "https://example.com/e?y=%27z%27 | https://example.com | https://example.com/e?y='z'",
        "https://example.com/plain | https://example.com | https://example.com/plain",
    ]

    static let listing = "SELECT url || ' | ' || host || ' | ' || coalesce(url_key, 'NULL') FROM crawl_url ORDER BY id"

    /// The run the rows belong to, a page of the first row and a redirect from the second to the first: SQL
    /// both engines take.
    static let otherRows = [
        "INSERT INTO crawl_run (id, started_at, finished_at, seeds) VALUES (1, 0, 1, '[]')",
        """
        INSERT INTO page (url, final_url, http_status, is_indexable, fetched_at, changed_at, run_id)
        VALUES ('https://example.com/q?a=''b''', 'https://example.com/q?a=''b''', 200, TRUE, 0, 0, 1)
        """,
        """
        INSERT INTO redirect (from_url, to_url, http_status, run_id)
        VALUES ('http://[::ffff:1.2.3.4]/', 'https://example.com/q?a=''b''', 301, 1)
        """,
    ]

    /// Pages and redirects follow their frontier row's URL (a page's `final_url` is what was fetched, kept).
    static let followers = """
        SELECT 'page ' || url || ' fetched as ' || final_url FROM page
        UNION ALL SELECT 'redirect ' || from_url || ' -> ' || to_url FROM redirect ORDER BY 1
        """

    static let expectedFollowers = [
        "page https://example.com/q?a=%27b%27 fetched as https://example.com/q?a='b'",
        "redirect http://[::ffff:102:304]/ -> https://example.com/q?a=%27b%27",
    ]

    @Test("a SQLite store of the previous schema: URLs, hosts and keys recomputed, collisions kept apart")
    func sqlite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try SQLiteStore.migrator.migrate(queue, upTo: "v13-freshness")
        try queue.write { db in
            for statement in Self.otherRows { try db.execute(sql: statement) }
            for row in Self.oldRows {
                try db.execute(
                    sql: """
                        INSERT INTO crawl_url (url, host, url_key, kind, depth, source, run_id, state)
                        VALUES (?, ?, ?, 'page', 1, 'link', 1, 'done')
                        """,
                    arguments: [row.url, row.host, row.key])
            }
        }
        try queue.close()

        let store = try SQLiteStore(path: path)
        #expect(try store.integrityCheck() == ["ok"])
        let reader = try DatabaseQueue(path: path)
        let (listing, followers, migrations) = try reader.read { db in
            (
                try String.fetchAll(db, sql: Self.listing), try String.fetchAll(db, sql: Self.followers),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            )
        }
        try reader.close()
        #expect(listing == Self.expected)
        #expect(followers == Self.expectedFollowers)
        #expect(migrations.contains("v14-whatwg-crawl-url"))
    }

    @Test("a PostgreSQL store of the previous schema: the same rows as on SQLite")
    func postgres() async throws {
        let database = try await TestDatabase.make()
        let previous = Array(PostgresSchema.migrations.prefix { $0.identifier != "v6-whatwg-crawl-url" })
        #expect(previous.count == PostgresSchema.migrations.count - 4)
        try await database.withConnection { connection in
            try await PostgresMigrator.migrate(connection, migrations: previous, logger: .silent)
            for statement in Self.otherRows {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: .silent)
            }
            for row in Self.oldRows {
                try await connection.query(
                    """
                    INSERT INTO crawl_url (url, host, url_key, kind, depth, source, run_id, state)
                    VALUES (\(row.url), \(row.host), \(row.key), 'page', 1, 'link', 1, 'done')
                    """, logger: .silent)
            }
        }
        let store = try await PostgresStore.open(try database.location)
        #expect(
            try await store.appliedMigrations().suffix(4) == [
                "v6-whatwg-crawl-url", "v7-refresh-indexes", "v8-index-generations", "v9-page-rendered",
            ])
        await store.close()
        #expect(try await database.strings(PostgresQuery(unsafeSQL: Self.listing)) == Self.expected)
        #expect(try await database.strings(PostgresQuery(unsafeSQL: Self.followers)) == Self.expectedFollowers)
    }
}
