import Crawler
import FixtureServer
import Foundation
import Logging
import Store
import TestSupport
import Testing

/// Many crawl workers on one store, in every shape: numbers of workers, hosts, per-host caps, URLs per claim
/// and global concurrency drawn from a seed (`CRAWL_MATRIX_SEED`, `CRAWL_MATRIX_ROUNDS` for more cases), plus
/// the shape that once stalled for good (three workers, one 600-page host, two slots, four requests at once).
///
/// Each case crawls loopback hosts whose pages answer after a short pause (so a host's requests overlap) with
/// workers started a little apart in this process, each with its own connection to the store as a process
/// would have. Every pass must end within a generous bound; each page must be requested exactly once, with
/// no host ever seeing more requests at once than its cap; and the store must end with nothing queued or
/// leased.
@Suite("Many workers × hosts × per-host caps × claim sizes: every pass ends, each URL once, the cap held", .serialized)
struct CrawlWorkerMatrixTests {
    /// One shape of crawl.
    struct Shape: Sendable, CustomTestStringConvertible {
        var workers: Int
        var hosts: Int
        var pagesPerHost: Int
        var perHost: Int
        var urlsPerClaim: Int
        var concurrency: Int
        /// How long each page takes to answer, in milliseconds.
        var answerMilliseconds: Int
        /// The pause between two workers' starts, in milliseconds.
        var staggerMilliseconds: Int
        /// How many pages the first page of each host links to: a wide home page queues most of the site
        /// at once (and every worker's claim is full), a narrow one makes the site a chain found page by page.
        var homeLinks: Int
        /// The seed of the links between pages.
        var linkSeed: UInt64

        var testDescription: String {
            "\(workers) workers, \(hosts) hosts × \(pagesPerHost) pages (home links \(homeLinks)), cap \(perHost), "
                + "claim \(urlsPerClaim), concurrency \(concurrency), \(answerMilliseconds) ms answers, "
                + "start \(staggerMilliseconds) ms apart"
        }
    }

    /// The shape of the reported stall, then seeded random shapes.
    static let shapes: [Shape] = {
        var shapes = [
            Shape(
                workers: 3, hosts: 1, pagesPerHost: 600, perHost: 2, urlsPerClaim: 64, concurrency: 4,
                answerMilliseconds: 10, staggerMilliseconds: 200, homeLinks: 600, linkSeed: 1)
        ]
        let seed = SeededRandom.seed(fromEnvironment: "CRAWL_MATRIX_SEED", default: 20_261_129)
        let rounds = ProcessInfo.processInfo.environment["CRAWL_MATRIX_ROUNDS"].flatMap { Int($0) } ?? 8
        var random = SeededRandom(seed: seed)
        for _ in 0..<rounds {
            shapes.append(
                Shape(
                    workers: Int.random(in: 2...5, using: &random),
                    hosts: Int.random(in: 1...3, using: &random),
                    pagesPerHost: Int.random(in: 20...150, using: &random),
                    perHost: Int.random(in: 1...3, using: &random),
                    urlsPerClaim: [1, 2, 3, 5, 8, 64].randomElement(using: &random)!,
                    concurrency: Int.random(in: 1...6, using: &random),
                    answerMilliseconds: Int.random(in: 2...20, using: &random),
                    staggerMilliseconds: Int.random(in: 0...200, using: &random),
                    homeLinks: [3, 30, 1000].randomElement(using: &random)!,
                    linkSeed: random.next()))
        }
        return shapes
    }()

    /// The longest a pass may take before it counts as stalled: each case finishes in seconds.
    static let stallLimit: Duration = .seconds(60)

    @Test("the pass ends with each page fetched once and the cap held", arguments: StoreEngine.allCases, shapes)
    func crawl(engine: StoreEngine, shape: Shape) async throws {
        let servers = try await Self.startSites(shape)
        let storage = try await CrawlStoreUnderTest.make(engine)
        defer { Task { await storage.cleanUp() } }
        let seeds = servers.map { $0.url("/p0.html") }
        var configuration = testConfiguration(seeds: seeds)
        configuration.perHostConcurrency = shape.perHost
        configuration.concurrency = shape.concurrency
        configuration.urlsPerClaim = shape.urlsPerClaim
        configuration.allowsPlainHTTPAppSiteAssociation = true

        let gate = try await Gatekeeper(store: storage.store, seeds: seeds)
        var monitor = HoldingMonitor(storage: storage)
        monitor.ignoring = [gate.worker.owner]
        let watching = Task { [monitor] in try await monitor.watch() }
        let outcome = try await Self.runWorkers(shape, configuration: configuration, storage: storage, gate: gate)
        watching.cancel()
        for hold in try await watching.value { Issue.record("\(hold)") }
        let requests = await servers.asyncMap { await $0.requests().map(\.path) }
        let peaks = await servers.asyncMap { await $0.peakConcurrentRequests() }
        for server in servers { await server.stop() }

        guard let summaries = outcome else {
            let leases = try await storage.rows("SELECT host, name, owner FROM host_lease ORDER BY host, name")
            let held = try await storage.rows(
                "SELECT lease_owner, COUNT(*) AS n FROM crawl_url WHERE state = 'queued' GROUP BY lease_owner")
            Issue.record("the pass stalled: slots \(leases), queued URLs by holder \(held)")
            return
        }
        #expect(summaries.allSatisfy { $0.finished })
        for (index, paths) in requests.enumerated() {
            var counts: [String: Int] = [:]
            for path in paths where path.hasPrefix("/p") { counts[path, default: 0] += 1 }
            let expected = Set((0..<shape.pagesPerHost).map { "/p\($0).html" })
            #expect(Set(counts.keys) == expected, "host \(index): pages requested")
            #expect(
                counts.values.allSatisfy { $0 == 1 },
                "host \(index): pages requested twice: \(counts.filter { $0.value > 1 })")
            #expect(paths.filter { $0 == "/robots.txt" }.count == 1, "host \(index): robots.txt once per pass")
        }
        for (index, peak) in peaks.enumerated() {
            #expect(peak <= shape.perHost, "host \(index): \(peak) requests at once, cap \(shape.perHost)")
        }
        #expect(try await storage.rows("SELECT id FROM crawl_url WHERE state = 'queued'").isEmpty)
        #expect(try await storage.rows("SELECT id FROM crawl_url WHERE lease_owner IS NOT NULL").isEmpty)
        #expect(try await storage.rows("SELECT name FROM host_lease").isEmpty)
    }

    /// Starts `shape.workers` crawls, each on its own connection, `staggerMilliseconds` apart, and returns
    /// their summaries; `nil` when they have not all ended within ``stallLimit`` (they are then cancelled).
    ///
    /// All of them join one pass: `gate` holds a URL of that pass under lease until every worker has joined
    /// (a pass ends only when nothing is queued or leased), so a fast pass cannot end before the last worker
    /// starts, which would then start a pass of its own and fetch the site again.
    static func runWorkers(
        _ shape: Shape, configuration: CrawlConfiguration, storage: CrawlStoreUnderTest, gate: Gatekeeper
    ) async throws -> [CrawlSummary]? {
        var logger = Logger(label: "test.crawl.matrix")
        logger.logLevel = .critical
        var stores: [any CrawlStore] = []
        for _ in 0..<shape.workers { stores.append(try await storage.openAnother()) }
        defer {
            let opened = stores
            Task { for store in opened { await storage.close(store) } }
        }
        let crawlers = stores.map { Crawler(configuration: configuration, store: $0, logger: logger) }
        return try await withThrowingTaskGroup(of: [CrawlSummary]?.self) { group in
            group.addTask {
                try await withThrowingTaskGroup(of: CrawlSummary?.self) { workers in
                    for (index, crawler) in crawlers.enumerated() {
                        workers.addTask {
                            try await Task.sleep(for: .milliseconds(index * shape.staggerMilliseconds))
                            return try await crawler.run()
                        }
                    }
                    workers.addTask {
                        try await gate.open(afterJoining: shape.workers)
                        return nil
                    }
                    var summaries: [CrawlSummary] = []
                    for try await summary in workers { summary.map { summaries.append($0) } }
                    return summaries
                }
            }
            group.addTask {
                try await Task.sleep(for: stallLimit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// A worker of the test that starts the pass and holds one URL of it, so the pass stays open until
    /// ``open(afterJoining:)`` sees the crawl workers joined.
    struct Gatekeeper: Sendable {
        let store: any CrawlStore
        let worker = CrawlWorker.current()
        let run: Int64
        let held: Int64

        init(store: any CrawlStore, seeds: [String]) async throws {
            self.store = store
            let now = Date().timeIntervalSince1970
            run = try await store.beginRun(seeds: seeds, now: now, worker: worker).id
            let host = try #require(seeds.first.flatMap { URL(string: $0) }.map { "http://\($0.host!):\($0.port!)" })
            var batch = CrawlBatch()
            batch.candidates = [FrontierCandidate(url: host + "/gate", host: host, depth: 0, source: .seed)]
            _ = try await store.commit(batch, run: run, worker: nil)
            let taken = try await store.claimURLs(
                run: run, host: host, worker: worker, now: now, leaseUntil: now + 3600, limit: 1)
            held = try #require(taken.first?.id)
        }

        /// Waits until `count` more workers joined the pass, then ends the held URL and leaves the pass.
        func open(afterJoining count: Int) async throws {
            while try await store.runWorkers(run).count < count + 1 {
                try await Task.sleep(for: .milliseconds(10))
            }
            var batch = CrawlBatch()
            batch.completions = [CrawlBatch.Completion(id: held, state: .skipped, outcome: .invalidURL)]
            _ = try await store.commit(batch, run: run, worker: worker)
            try await store.leaveRun(run, worker: worker, countersJSON: "{}", now: Date().timeIntervalSince1970)
        }
    }

    /// One loopback host per `shape.hosts`: robots.txt allowing all, and pages `/p0.html` … that answer after
    /// `answerMilliseconds`. The first page links to the next `homeLinks` pages; each page links to the next
    /// two, one drawn at random and the first page of the next host; so every page is reachable from
    /// `/p0.html` and found by several paths.
    static func startSites(_ shape: Shape) async throws -> [FixtureServer] {
        var servers: [FixtureServer] = []
        for _ in 0..<shape.hosts { servers.append(try await FixtureServer.start(directory: nil)) }
        var random = SeededRandom(seed: shape.linkSeed)
        for (index, server) in servers.enumerated() {
            await server.setBehaviour(.text("User-agent: *\nAllow: /\n"), for: "/robots.txt")
            let next = servers[(index + 1) % servers.count]
            for page in 0..<shape.pagesPerHost {
                var targets = [page + 1, page + 2, Int.random(in: 0..<shape.pagesPerHost, using: &random)]
                if page == 0 { targets += Array(3...max(3, shape.homeLinks)) }
                var body = "<!doctype html><html><head><title>Page \(page)</title></head><body>"
                for target in targets where target < shape.pagesPerHost {
                    body += "<a href=\"/p\(target).html\">page \(target)</a> "
                }
                body += "<a href=\"\(next.url("/p0.html"))\">next host</a></body></html>"
                await server.setBehaviour(
                    .slowFirstByte(delay: .milliseconds(shape.answerMilliseconds), then: .html(body)),
                    for: "/p\(page).html")
            }
        }
        return servers
    }
}

extension Array where Element: Sendable {
    /// The results of `transform` over the elements, in order, one at a time.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
