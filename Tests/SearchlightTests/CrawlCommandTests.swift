import FixtureServer
import Foundation
import GRDB
import Testing

@testable import Store

@Suite("searchlight crawl")
struct CrawlCommandTests {
    /// A fresh store path in a temporary folder.
    static func storePath() throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crawl-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, folder.appendingPathComponent("searchlight.sqlite").path)
    }

    @Test("crawls the example site into the store and prints the summary; a second run re-crawls")
    func example() async throws {
        let server = try await FixtureServer.start(site: "example")
        let (folder, store) = try Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["crawl", server.url("/"), "--store", store, "--allow-private-network", "--delay", "0"]
        let first = try await CommandRunner.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("Crawl pass 1 finished"))
        #expect(first.standardOutput.contains("6 fetched, 6 indexed"))
        #expect(first.standardOutput.contains("1 read, 6 URLs listed"))
        let second = try await CommandRunner.run(arguments + ["--json"])
        await server.stop()
        let summary = try jsonObject(second.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let counters = try #require(summary["counters"] as? [String: Any])
        #expect(summary["run"] as? Int == 2 && summary["resumed"] as? Bool == false)
        #expect(counters["pagesUnchanged"] as? Int == 6)
        #expect(summary["store"] as? String == store)
    }

    @Test("pages that fail for good make the exit status 1, named in the summary")
    func failures() async throws {
        let server = try await FixtureServer.start(site: "example")
        await server.setBehaviour(.respond(status: 500), for: "/about.html")
        let (folder, store) = try Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await CommandRunner.run([
            "crawl", server.url("/"), "--store", store, "--allow-private-network", "--delay", "0", "--json",
        ])
        await server.stop()
        #expect(outcome.status == 1)
        let summary = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((summary["counters"] as? [String: Any])?["errors"] as? [String: Int] == ["http-500": 1])
    }

    @Test(
        "usage errors exit 2",
        arguments: [
            ["crawl", "ftp://example.org/"],
            ["crawl", "https://example.org/", "--exclude", ""],
            ["crawl", "https://example.org/", "--max-pages", "0"],
            ["crawl", "https://example.org/", "--max-url-length", "10"],
            ["crawl", "https://example.org/", "--delay", "-1"],
        ])
    func usage(arguments: [String]) async throws {
        let (folder, store) = try Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await CommandRunner.run(arguments + ["--store", store])
        #expect(outcome.status == 2, "\(outcome.standardError)")
    }

    @Test("a store that is not a SQLite file is a runtime failure, exit 3")
    func badStore() async throws {
        let (folder, store) = try Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a database, just text that is long enough to fill a header".utf8).write(
            to: URL(fileURLWithPath: store))
        let outcome = try await CommandRunner.run(["crawl", "https://example.org/", "--store", store])
        #expect(outcome.status == 3)
        #expect(outcome.standardError.contains(store))
    }
}

@Suite("searchlight crawl with no URL")
struct CrawlPendingCommandTests {
    @Test("fetches the pending activity web pages when nothing else is unfinished")
    func pendingOnly() async throws {
        let server = try await FixtureServer.start(site: "example")
        let (folder, store) = try CrawlCommandTests.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try SQLiteStore(path: store)
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO pending_url (url_key, url, added_at) VALUES (?, ?, 0)",
                arguments: [server.url("/about.html"), server.url("/about.html")])
            // Donated by the app the example site names: a crawl never seeded with the site fetches it then.
            try db.execute(
                sql: """
                    INSERT INTO activity (identity, bundle, activity_type, url_key, donors, first_seen, last_seen)
                    VALUES (x'01', 'com.example.recipes', 'view', ?, 3, 0, 0)
                    """,
                arguments: [server.url("/about.html")])
        }
        try queue.close()
        let outcome = try await CommandRunner.run([
            "crawl", "--store", store, "--allow-private-network", "--plain-http-app-site-association", "--delay",
            "0", "--json",
        ])
        let paths = await server.requests().map(\.path).filter { $0 != "/robots.txt" && !$0.hasPrefix("/.well-known") }
        await server.stop()
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let summary = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((summary["counters"] as? [String: Any])?["pagesFetched"] as? Int == 1)
        #expect(paths == ["/about.html"])
        let reader = try DatabaseQueue(path: store)
        let left = try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_url") }
        #expect(left == 0)
    }
}
