import Crawler
import FixtureServer
import Foundation
import GRDB
import Scope
import TestSupport
import Testing

@testable import Store

@Suite("The frontier deduplicates on the canonical URL key")
struct CrawlFrontierKeyTests {
    @Test(
        "spellings of one resource share a key",
        arguments: [
            ("https://example.com/p?a=2&b=1", "https://example.com/p?b=1&a=2"),
            ("https://example.com/p?a=2&b=1", "https://example.com/p?utm_source=x&b=1&a=2&gclid=9"),
            ("https://example.com/p", "https://example.com/p#top"),
            ("http://example.com/p", "http://example.com:80/p"),
            ("https://example.com/p", "https://example.com:443/p?"),
            ("https://example.com/", "https://example.com"),
        ])
    func sharedKey(first: String, second: String) {
        #expect(FrontierCandidate.key(for: first) == FrontierCandidate.key(for: second))
    }

    @Test("different resources keep different keys (www. and parameter values count)")
    func distinctKeys() {
        #expect(
            FrontierCandidate.key(for: "https://example.com/p")
                != FrontierCandidate.key(for: "https://www.example.com/p"))
        #expect(
            FrontierCandidate.key(for: "https://example.com/p?a=1")
                != FrontierCandidate.key(for: "https://example.com/p?a=2"))
    }

    @Test("the shortcut for URLs without a query agrees with URLCanonical on the WHATWG URL corpus")
    func shortcutAgrees() throws {
        let corpus = try JSONSerialization.jsonObject(
            with: Data(try Fixtures.bytes("conformance/url/urltestdata.json")))
        let hrefs = try #require(corpus as? [Any]).compactMap { ($0 as? [String: Any])?["href"] as? String }
            .filter { $0.hasPrefix("http:") || $0.hasPrefix("https:") }
        var checked = 0
        for href in hrefs {
            guard let url = try? CrawlURL(href) else { continue }
            // The crawler's key is URLCanonical's key of the normalized URL, shortcut or not.
            #expect(url.frontierKey == url.canonicalFrontierKey, "\(href)")
            #expect(url.canonicalFrontierKey == FrontierCandidate.key(for: url.string))
            if url.query == nil { checked += 1 }
        }
        #expect(checked > 100)
    }

    @Test("links differing only in tracking parameters, parameter order, fragment or default port are fetched once")
    func fetchedOnce() async throws {
        let server = try await startCrawlSite()
        let port = try #require(URL(string: server.baseURL)?.port)
        let links = [
            "/dup.html?a=2&b=1", "/dup.html?b=1&a=2", "/dup.html?utm_source=news&b=1&a=2", "/dup.html?a=2&b=1#part",
            "http://127.0.0.1:\(port)/dup.html?b=1&fbclid=x&a=2", "/dup.html?a=2&b=1&utm_medium=mail",
        ]
        await server.setBehaviour(
            .html("<title>Home</title>" + links.map { "<a href=\"\($0)\">x</a>" }.joined()), for: "/")
        await server.setBehaviour(.html("<title>Dup</title><a href=\"/dup.html?b=1&a=2\">self</a>"), for: "/dup.html")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let summary = try await crawl(
            testConfiguration(seeds: [server.url("/")]) { $0.maxDepth = 2 }, into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()

        #expect(summary.finished)
        // Fetched once, as first found (not in its canonical spelling).
        #expect(targets.filter { $0.hasPrefix("/dup.html") } == ["/dup.html?a=2&b=1"])
        let entries = try rows(storage.path, "SELECT url, url_key, state FROM crawl_url WHERE url LIKE '%/dup.html%'")
        #expect(entries.count == 1)
        #expect(entries.first?["url"] == server.url("/dup.html?a=2&b=1"))
        #expect(entries.first?["url_key"] == server.url("/dup.html?a=2&b=1"))
        #expect(try rows(storage.path, "SELECT url FROM page WHERE url LIKE '%/dup.html%'").count == 1)
    }

    @Test("a committed candidate is deduplicated on its key; a later pass requeues the first spelling")
    func storeDedup() async throws {
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        let host = "https://example.com"
        var batch = CrawlBatch()
        for url in ["\(host)/p?b=1&a=2", "\(host)/p?a=2&b=1", "\(host)/p?utm_campaign=z&a=2&b=1"] {
            batch.candidates.append(FrontierCandidate(url: url, host: host, depth: 1, source: .link))
        }
        #expect(try await store.commit(batch, run: 1) == 1)
        var later = CrawlBatch()
        later.candidates = [FrontierCandidate(url: "\(host)/p?a=2&b=1", host: host, depth: 0, source: .seed)]
        #expect(try await store.commit(later, run: 2) == 1)
        let stored = try rows(storage.path, "SELECT url, url_key, run_id, depth, source FROM crawl_url")
        #expect(
            stored == [
                [
                    "url": "\(host)/p?b=1&a=2", "url_key": "\(host)/p?a=2&b=1", "run_id": "2", "depth": "0",
                    "source": "seed",
                ]
            ])
    }
}

@Suite("Pending activity URLs in the store")
struct PendingStoreTests {
    @Test("a pending URL's entry takes the importer's key; its final state removes the pending row, a retry does not")
    func importerKeyAndResolution() async throws {
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        let url = "https://example.com/a%7Cb"
        // The importer keyed the donated spelling (`|` unescaped); the crawler's key of its normalized
        // URL differs.
        let importerKey = "https://example.com/a|b"
        try addPending([], to: storage.path)
        let queue = try DatabaseQueue(path: storage.path)
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO pending_url (url_key, url, added_at) VALUES (?, ?, 0)",
                arguments: [importerKey, "https://example.com/a|b"])
        }
        var found = CrawlBatch()
        found.candidates = [FrontierCandidate(url: url, host: "https://example.com", depth: 2, source: .link)]
        _ = try await store.commit(found, run: 1)
        var pending = CrawlBatch()
        pending.candidates = [
            FrontierCandidate(
                url: url, key: importerKey, host: "https://example.com", depth: 0,
                source: .activity)
        ]
        _ = try await store.commit(pending, run: 1)
        let entry = try rows(storage.path, "SELECT id, url_key, depth, source FROM crawl_url")
        #expect(entry.count == 1)
        #expect(entry.first?["url_key"] == importerKey && entry.first?["depth"] == "0")
        let id = try #require(entry.first?["id"].flatMap { Int64($0) })

        var retry = CrawlBatch()
        retry.completions = [CrawlBatch.Completion(id: id, state: .queued, outcome: .retryHTTPStatus(503), attempts: 1)]
        _ = try await store.commit(retry, run: 1)
        #expect(try rows(storage.path, "SELECT url_key FROM pending_url").count == 1)
        var done = CrawlBatch()
        done.completions = [CrawlBatch.Completion(id: id, state: .done, outcome: .indexed, attempts: 2)]
        _ = try await store.commit(done, run: 1)
        #expect(try rows(storage.path, "SELECT url_key FROM pending_url").isEmpty)
        try queue.close()
    }
}

@Suite("Migration v3-frontier-key")
struct FrontierKeyMigrationTests {
    @Test("a v2 store with frontier rows is upgraded: keys backfilled, colliding later rows kept with a NULL key")
    func upgradesV2Store() async throws {
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        // A store file exactly as the released v2 schema left it, with rows.
        let queue = try DatabaseQueue(path: storage.path)
        try SQLiteStore.migrator.migrate(queue, upTo: "v2-index")
        let host = "https://example.com"
        let urls = [
            "\(host)/p?b=1&a=2", "\(host)/p?a=2&b=1", "\(host)/q?utm_source=x", "\(host)/q", "\(host)/r",
        ]
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO crawl_run (id, started_at, finished_at, seeds) VALUES (1, 0, 1, '[]')")
            for url in urls {
                try db.execute(
                    sql: """
                        INSERT INTO crawl_url (url, host, kind, depth, source, run_id, state, outcome)
                        VALUES (?, ?, 'page', 1, 'link', 1, 'done', 'indexed')
                        """,
                    arguments: [url, host])
            }
        }
        try queue.close()

        let store = try storage.open()
        let keys = try rows(storage.path, "SELECT url, url_key FROM crawl_url ORDER BY id")
        #expect(keys.map { $0["url"] } == urls)
        #expect(
            keys.map { $0["url_key"] } == ["\(host)/p?a=2&b=1", nil, "\(host)/q", nil, "\(host)/r"])
        let migrations = try rows(storage.path, "SELECT identifier FROM grdb_migrations").compactMap {
            $0["identifier"]
        }
        #expect(migrations.contains("v3-frontier-key"))
        #expect(try store.integrityCheck() == ["ok"])

        // A re-crawl pass: both spellings of /p and /q requeue one row each, no new row.
        var batch = CrawlBatch()
        for url in ["\(host)/p?a=2&b=1&utm_medium=y", "\(host)/p?a=2&b=1", "\(host)/q", "\(host)/s"] {
            batch.candidates.append(FrontierCandidate(url: url, host: host, depth: 0, source: .seed))
        }
        _ = try await store.commit(batch, run: 2)
        let after = try rows(storage.path, "SELECT url FROM crawl_url WHERE run_id = 2 ORDER BY id")
        #expect(after.map { $0["url"] } == ["\(host)/p?b=1&a=2", "\(host)/q?utm_source=x", "\(host)/s"])
        #expect(try rows(storage.path, "SELECT id FROM crawl_url").count == 6)
    }
}
