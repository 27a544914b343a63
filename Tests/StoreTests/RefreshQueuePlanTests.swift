import Foundation
import GRDB
import Testing

@testable import Store

/// A refresh pass starts by queueing the sitemaps and the pages due. On a large frontier these statements
/// must reach the few rows they change through indexes, never by reading every row.
@Suite struct RefreshQueuePlanTests {
    static let narrowPaths = [
        "INTEGER PRIMARY KEY", "crawl_url_sitemap", "crawl_url_next_visit", "crawl_url_lastmod_newer",
    ]

    @Test("SQLite queues the sitemaps and the due pages through indexes, and queues the right rows")
    func sqlitePlans() throws {
        let queue = try DatabaseQueue()
        try SQLiteStore.migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO crawl_run (id, started_at, seeds) VALUES (1, 0, '[]')")
            // id, kind, next visit, visited, sitemap lastmod: due by time, not due, due by lastmod, never
            // visited, a sitemap, a page without a host.
            let rows: [(Int, String, String, Double?, Double?, Double?)] = [
                (1, "page", "a.example", 50, 10, nil), (2, "page", "a.example", 500, 10, 5),
                (3, "page", "a.example", 500, 10, 20), (4, "page", "a.example", nil, nil, nil),
                (5, "sitemap", "a.example", 500, 10, nil), (6, "page", "", nil, nil, nil),
            ]
            for (id, kind, host, next, visited, lastmod) in rows {
                try db.execute(
                    sql: """
                        INSERT INTO crawl_url (id, url, host, url_key, kind, depth, source, run_id, state,
                            next_visit_at, visited_at, sitemap_lastmod)
                        VALUES (?, ?, ?, ?, ?, 0, 'link', 1, 'done', ?, ?, ?)
                        """,
                    arguments: [id, "https://a.example/\(id)", host, "k\(id)", kind, next, visited, lastmod])
            }
            for sql in [
                RefreshRules.queueSitemaps(run: "2", dueBefore: "100"),
                RefreshRules.queueDuePages(run: "2", dueBefore: "100"),
            ] {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
                // Every read of the frontier goes through a row id or an index that holds only what is due.
                let wide = plan.filter { step in
                    (step.hasPrefix("SCAN crawl_url") || step.hasPrefix("SEARCH crawl_url"))
                        && !Self.narrowPaths.contains { step.contains($0) }
                }
                #expect(wide.isEmpty, "\(plan)")
                try db.execute(sql: sql)
            }
            let queued = try Int.fetchAll(db, sql: "SELECT id FROM crawl_url WHERE run_id = 2 ORDER BY id")
            #expect(queued == [1, 3, 4, 5])
        }
    }
}
