import FixtureServer
import Foundation
import GRDB
import Testing

/// The search replica of a PostgreSQL store through the real executables on a real PostgreSQL cluster: two
/// servers on one store, `search` after another process's `publish`, and a sync killed at any moment.
@Suite("Search replicas of a PostgreSQL store, through the commands", .timeLimit(.minutes(5)))
struct ReplicaCommandTests {
    /// A PostgreSQL store and a folder for donation files and index caches.
    struct Fixture {
        let store: WorkersTestStore
        let folder: URL

        static func make() async throws -> Fixture {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replica-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return Fixture(store: try await WorkersTestStore.make(.postgres), folder: folder)
        }

        var storeArguments: [String] { ["--store", store.argument] }

        func cache(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// Imports `count` public activities titled `title 0`, `title 1`… (threshold 1) and publishes.
        func importAndPublish(_ title: String, ids: Range<Int>) async throws {
            let file = folder.appendingPathComponent("\(title)-\(ids.lowerBound).jsonl")
            let lines = try ids.map { try ServeCommandTests.activity("\(title)-\($0)", title: "\(title) \($0)") }
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            let imported = try await CommandRunner.run(
                ["import", file.path, "--engagement-threshold", "1"] + storeArguments)
            #expect(imported.status == 0, "\(imported.standardError)")
            let published = try await CommandRunner.run(["publish"] + storeArguments)
            #expect(published.status == 0, "\(published.standardError)")
        }

        /// The total `search` finds for `text` through the cache `cache`.
        func total(_ text: String, cache: String, extra: [String] = []) async throws -> Int {
            let outcome = try await CommandRunner.run(
                ["search", text, "--json", "--index-cache", cache] + extra + storeArguments)
            #expect(outcome.status <= 1, "\(outcome.standardError)")
            return try jsonObject(outcome.standardOutput)["total"] as? Int ?? -1
        }

        func cleanUp() {
            store.cleanUp()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test("two servers on one store: a donation to the first is found on both after its publish, no restart")
    func twoServers() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.cleanUp() }
        try await fixture.importAndPublish("Lemon", ids: 0..<3)
        let created = try await CommandRunner.run(
            ["token", "create", "--bundle", ServeCommandTests.bundle] + fixture.storeArguments)
        let token = try #require(created.standardOutput.split(separator: "\n").last.map(String.init))
        let first = try await ServeProcess(
            fixture.storeArguments + [
                "--publish-interval", "0.3", "--sync-interval", "1", "--index-cache", fixture.cache("first"),
            ])
        let second = try await ServeProcess(
            fixture.storeArguments + ["--sync-interval", "1", "--index-cache", fixture.cache("second")])
        for server in [first, second] {
            let found = try await server.request("/api/search?q=lemon")
            #expect(try jsonObject(found.body)["total"] as? Int == 3)
        }
        let before = try await second.request("/healthz")
        let generation = try #require(before.headers["searchlight-index-generation"].flatMap { Int($0) })

        let posted = try await first.request(
            "/api/donations", method: "POST", body: Data(try ServeCommandTests.activity("q", title: "Quince jam").utf8),
            headers: ["Authorization": "Bearer \(token)"])
        #expect(posted.status == 202 || posted.status == 200, "\(posted.body)")
        for server in [first, second] {
            let found = try await server.poll("/api/search?q=quince", timeout: .seconds(20)) { answer in
                (try? jsonObject(answer.body)["total"] as? Int) == 1
            }
            #expect((try? jsonObject(found.body)["total"] as? Int) == 1, "\(found.body)")
        }
        let after = try await second.request("/healthz")
        #expect(after.status == 200 && after.body == "ok\n")
        #expect(after.headers["searchlight-index-generation"].flatMap { Int($0) } ?? 0 > generation)
        #expect(after.headers["searchlight-replica-lag"] == "0")
        let metrics = try await second.request("/metrics")
        #expect(metrics.body.contains("searchlight_index_generation"))
        #expect(metrics.body.contains("searchlight_replica_lag_generations"))
        _ = await first.stop()
        _ = await second.stop()
    }

    @Test("search right after another process's publish answers from the new generation; --no-sync does not")
    func searchAfterPublish() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.cleanUp() }
        let cache = fixture.cache("cli")
        try await fixture.importAndPublish("Lemon", ids: 0..<2)
        #expect(try await fixture.total("lemon", cache: cache) == 2)
        try await fixture.importAndPublish("Quince", ids: 0..<1)
        #expect(try await fixture.total("quince", cache: cache, extra: ["--no-sync"]) == 0)
        #expect(try await fixture.total("quince", cache: cache) == 1)
        try await fixture.importAndPublish("Lemon", ids: 2..<3)
        #expect(try await fixture.total("lemon", cache: cache) == 3)
        // Without a replica, --no-sync has nothing to answer from.
        let none = try await CommandRunner.run(
            ["search", "lemon", "--no-sync", "--index-cache", fixture.cache("empty")] + fixture.storeArguments)
        #expect(none.status == 3 && none.standardError.contains("no index replica"), "\(none.standardError)")
    }

    /// The generation and item count of the newest complete replica file in `cache`.
    static func replicaState(_ cache: String) throws -> (generation: Int, items: Int)? {
        let names = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".sqlite") }
        guard let name = names.max(by: { Self.number($0) < Self.number($1) }) else { return nil }
        return try DatabaseQueue(path: cache + "/" + name).read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            let generation = try String.fetchOne(
                db, sql: "SELECT value FROM setting WHERE name = 'replica_generation'")
            let items = try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") ?? -1
            let words = try Int.fetchOne(db, sql: "SELECT count(*) FROM public_fts WHERE public_fts MATCH 'quince'")
            #expect(words == items - 3, "the word index has a row for every item")
            return (generation.flatMap { Int($0) } ?? -1, items)
        }
    }

    static func number(_ name: String) -> Int {
        Int(name.split(separator: ".").dropLast().last ?? "") ?? 0
    }

    @Test("a sync killed at any moment leaves the replica at the old generation or the new one")
    func killedSync() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.cleanUp() }
        let cache = fixture.cache("killed")
        try await fixture.importAndPublish("Lemon", ids: 0..<3)
        let built = try await CommandRunner.run(["sync", "--index-cache", cache] + fixture.storeArguments)
        #expect(built.status == 0, "\(built.standardError)")
        // One unkilled sync of a change this size, to kill the others part of the way through theirs.
        let batch = 4_000
        try await fixture.importAndPublish("Quince", ids: 0..<batch)
        let start = ContinuousClock.now
        #expect(try await CommandRunner.run(["sync", "--index-cache", cache] + fixture.storeArguments).status == 0)
        let full = ContinuousClock.now - start
        var items = 3 + batch
        #expect(try Self.replicaState(cache)?.items == items)
        for (round, fraction) in [0.15, 0.4, 0.65, 0.9].enumerated() {
            let (generation, _) = try #require(try Self.replicaState(cache))
            try await fixture.importAndPublish("Quince", ids: (round + 1) * batch..<(round + 2) * batch)
            let sync = try KillableProcess(
                CommandRunner.executable, ["sync", "--index-cache", cache] + fixture.storeArguments)
            try await Task.sleep(for: full * fraction)
            sync.kill()
            _ = await sync.waitForExit()
            let state = try #require(try Self.replicaState(cache))
            #expect(
                (state.generation == generation && state.items == items)
                    || (state.generation == generation + 1 && state.items == items + batch),
                "round \(round): \(state), was \(generation) with \(items)")
            let again = try await CommandRunner.run(["sync", "--index-cache", cache] + fixture.storeArguments)
            #expect(again.status == 0, "\(again.standardError)")
            items += batch
            #expect(try Self.replicaState(cache).map { $0.generation == generation + 1 && $0.items == items } == true)
        }
    }
}

@Suite("A search replica holds only what is public", .timeLimit(.minutes(3)))
struct ReplicaPrivacyCommandTests {
    @Test("an activity page robots.txt disallows is withheld, and nothing of it reaches the replica file")
    func robotsBlockedStaysOut() async throws {
        let fixture = try await ReplicaCommandTests.Fixture.make()
        defer { fixture.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        let lines = try ["a", "b", "c"].map { donor in
            let object: [String: Any] = [
                "type": "userActivity", "bundleIdentifier": "com.example.recipes", "donor": donor,
                "activityType": "com.example.recipes.view", "isEligibleForPublicIndexing": true,
                "title": "ROBOTS-BLOCKED-TITLE", "webpageURL": server.baseURL + "/private/hidden.html",
            ]
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        try await fixture.importAndPublish("Lemon", ids: 0..<2)
        let file = fixture.folder.appendingPathComponent("blocked.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let arguments = fixture.storeArguments
        #expect(try await CommandRunner.run(["import", file.path] + arguments).status <= 1)
        #expect(try await CommandRunner.run(["publish"] + arguments).status == 0)
        let crawl = try await CommandRunner.run(
            ["crawl", "--allow-private-network", "--plain-http-app-site-association"] + arguments)
        #expect(crawl.status <= 1, "\(crawl.standardError)")
        let published = try await CommandRunner.run(["publish", "--json"] + arguments)
        #expect(published.standardOutput.contains(#""robotsDisallowed":1"#), "\(published.standardOutput)")
        await server.stop()
        let cache = fixture.cache("privacy")
        #expect(try await fixture.total("lemon", cache: cache) == 2)
        // The replica file and its WAL, as any program reading the folder sees them.
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: cache) {
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: cache + "/" + name))) ?? Data()
        }
        #expect(bytes.range(of: Data("Lemon 0".utf8)) != nil)
        for secret in ["ROBOTS-BLOCKED-TITLE", "/private/hidden.html"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the replica's folder")
        }
    }
}
