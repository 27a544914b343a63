import FixtureServer
import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// Bad input on the command line: unreadable donation files, endless pages, refused addresses, long
/// `Retry-After` pauses and control characters already in a store. Each gets a located error or a
/// bounded wait, and the rest of the batch goes on.
@Suite("Robust command-line input", .timeLimit(.minutes(2)))
struct RobustInputCommandTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("robust-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func activity(_ donor: String, _ id: String) -> String {
        """
        {"type":"userActivity","bundleIdentifier":"com.example.app","donor":"\(donor)","activityType":"view",\
        "title":"Item \(id)","requiredUserInfoKeys":["id"],"userInfo":{"id":"\(id)"},"isEligibleForPublicIndexing":true}
        """
    }

    @Test("An unreadable file among donation files is reported, and the others are imported (exit 1)")
    func unreadableDonationFiles() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.jsonl")
        let other = folder.appendingPathComponent("other.jsonl")
        try ["a", "b", "c"].map { Self.activity($0, "1") }.joined(separator: "\n").write(
            to: good, atomically: true, encoding: .utf8)
        try ["a", "b", "c"].map { Self.activity($0, "2") }.joined(separator: "\n").write(
            to: other, atomically: true, encoding: .utf8)
        let missing = folder.appendingPathComponent("missing.jsonl").path
        let store = folder.appendingPathComponent("s.sqlite").path
        let outcome = try await CommandRunner.run([
            "import", good.path, missing, folder.path, other.path, "--store", store, "--json",
        ])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("\(missing): cannot open: No such file or directory"))
        #expect(outcome.standardError.contains("\(folder.path): cannot read: is a directory"))
        #expect(!outcome.standardError.contains("NSCocoaErrorDomain"))
        let summary = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(summary["records"] as? Int == 6)
        #expect(summary["storedActivities"] as? Int == 2)
        #expect(summary["unreadableFiles"] as? Int == 2)
        let strict = try await CommandRunner.run(["import", good.path, missing, "--store", store, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.standardOutput.contains("nothing was imported (--strict)"))
    }

    @Test("extract stops at the body limit on an endless file and on standard input")
    func extractBodyLimit() async throws {
        let endless = try await CommandRunner.run([
            "extract", "/dev/zero", "--url", "https://example.com/", "--max-body-size", "100000",
        ])
        #expect(endless.status == 1)
        #expect(
            endless.standardError.contains("/dev/zero: larger than the limit of 100000 bytes (--max-body-size)"))
        let page = "<title>Big</title>" + String(repeating: "x", count: 300_000)
        let piped = try await CommandRunner.run(
            ["extract", "-", "--url", "https://example.com/", "--max-body-size", "200000"], standardInput: page)
        #expect(piped.status == 1)
        #expect(piped.standardError.contains("-: larger than the limit of 200000 bytes (--max-body-size)"))
        let fits = try await CommandRunner.run(["extract", "-", "--url", "https://example.com/"], standardInput: page)
        #expect(fits.status == 0, "\(fits.standardError)")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directoryAsFile = folder.appendingPathComponent("page.html")
        try FileManager.default.createDirectory(at: directoryAsFile, withIntermediateDirectories: true)
        let unreadable = try await CommandRunner.run(["extract", folder.path, "--url", "https://example.com/"])
        #expect(unreadable.status == 1)
        #expect(!unreadable.standardError.contains("permission"), "\(unreadable.standardError)")
    }

    @Test(
        "Every file a command reads says why it cannot, in the system's words",
        arguments: [
            ["robots", "--robots-file", "DIR", "https://example.com/"],
            ["search", "--queries", "DIR", "--store", "DIR/s.sqlite"],
            ["fetch", "--input", "DIR"],
            ["extract", "DIR", "--url", "https://example.com/"],
        ])
    func unreadableInputs(arguments: [String]) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("page.html"), withIntermediateDirectories: true)
        _ = try SQLiteStore(path: folder.appendingPathComponent("s.sqlite").path)
        let outcome = try await CommandRunner.run(
            arguments.map { $0.replacingOccurrences(of: "DIR", with: folder.path) })
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("cannot read: is a directory"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("permission"), "\(outcome.standardError)")
    }

    @Test("A seed on a refused address is an error named as such, at once, with no retries")
    func refusedAddress() async throws {
        let server = try await FixtureServer.start(site: "example")
        defer { Task { await server.stop() } }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        let outcome = try await CommandRunner.run(["crawl", server.url("/"), "--store", store, "--json"])
        #expect(outcome.status == 1, "\(outcome.standardOutput)")
        let summary = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let counters = try #require(summary["counters"] as? [String: Any])
        #expect(counters["errors"] as? [String: Int] == ["address-refused": 1])
        #expect(await server.totalConnections() == 0)
        // Tried once: three robots.txt attempts with backoff took 3.5 s, and reported no error.
        let queue = try DatabaseQueue(path: store)
        let attempts = try queue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM fetch_log") ?? 0 }
        #expect(attempts == 1)
    }

    @Test("--max-retry-after caps a Retry-After pause")
    func maxRetryAfter() async throws {
        let server = try await FixtureServer.start(site: "example")
        defer { Task { await server.stop() } }
        await server.setBehaviour(.retryAfter(status: 429, seconds: 3600), for: "/about.html")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await CommandRunner.run([
            "crawl", server.url("/"), "--store", folder.appendingPathComponent("s.sqlite").path,
            "--allow-private-network", "--delay", "0", "--max-retry-after", "0.2", "--json",
        ])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(await server.requests(to: "/about.html").count == 3)
        let usage = try await CommandRunner.run(["crawl", "https://example.org/", "--max-retry-after", "-1"])
        #expect(usage.status == 2)
    }

    @Test("Text output carries no control character, even from a store written before text was cleaned")
    func terminalOutput() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        // The publisher cleans text on its way in; this store holds what it would have refused.
        let item = TestItem(
            id: 1, title: "Harbour\u{1B}[2J clear", description: "Bell\u{07}\u{9B}6n", url: "https://example.com/",
            engagement: 3, boost: 1.0, lastSeen: 0, storedJSON: "{}", identifier: "https://example.com/\u{1B}[2J")
        try await TestItem.publish([item], into: try SQLiteStore(path: path))
        let text = try await CommandRunner.run(["search", "harbour", "--store", path])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("Harbour[2J clear"))
        for control in ["\u{1B}", "\u{07}", "\u{9B}"] {
            #expect(!text.standardOutput.contains(control))
        }
        let json = try await CommandRunner.run(["search", "harbour", "--store", path, "--json"])
        #expect(json.standardOutput.contains("\\u001b[2J") && !json.standardOutput.contains("\u{1B}"))
    }
}
