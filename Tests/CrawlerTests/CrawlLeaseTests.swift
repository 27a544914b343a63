import FixtureServer
import Foundation
import Store
import TestSupport
import Testing

/// The crawl store's contract for many workers on one pass, on both engines with the same expectations:
/// URL leases, host slots, once-per-pass host fetches, and dead workers' leases. Workers of "another
/// machine" are judged only by their leases.
@Suite("Frontier leases and shared politeness in the store")
struct CrawlLeaseTests {
    static let host = "https://example.com"

    /// A worker of another machine (its process cannot be looked at).
    static func remote(_ name: String) -> CrawlWorker {
        CrawlWorker(owner: "elsewhere/1/\(name)", machine: "elsewhere", pid: 1)
    }

    /// A store with one pass holding `count` queued pages of ``host``.
    static func store(
        _ engine: StoreEngine, pages count: Int
    ) async throws -> (CrawlStoreUnderTest, any CrawlStore, Int64) {
        let storage = try await CrawlStoreUnderTest.make(engine)
        let store = storage.store
        let run = try await store.beginRun(seeds: [], now: 0, worker: remote("starter")).id
        var batch = CrawlBatch()
        for index in 0..<count {
            batch.candidates.append(FrontierCandidate(url: "\(host)/p\(index)", host: host, depth: 1, source: .link))
        }
        _ = try await store.commit(batch, run: run, worker: nil)
        return (storage, store, run)
    }

    @Test(
        "two workers take disjoint URLs; an expired lease frees a URL, a renewed one keeps it",
        arguments: StoreEngine.allCases)
    func urlLeases(engine: StoreEngine) async throws {
        let (storage, store, run) = try await Self.store(engine, pages: 6)
        defer { Task { await storage.cleanUp() } }
        let (a, b) = (Self.remote("a"), Self.remote("b"))
        let first = try await store.claimURLs(run: run, host: Self.host, worker: a, now: 10, leaseUntil: 20, limit: 4)
        let second = try await store.claimURLs(run: run, host: Self.host, worker: b, now: 10, leaseUntil: 20, limit: 4)
        #expect(first.count == 4 && second.count == 2)
        #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
        #expect(
            try await store.claimURLs(run: run, host: Self.host, worker: b, now: 15, leaseUntil: 25, limit: 4).isEmpty)

        // a renews; b's lease runs out at 20.
        try await store.renewLeases(worker: a, run: run, now: 19, leaseUntil: 40)
        let taken = try await store.claimURLs(run: run, host: Self.host, worker: a, now: 21, leaseUntil: 50, limit: 9)
        #expect(Set(taken.map(\.id)) == Set(second.map(\.id)))

        // A stored result ends the lease and the URL's queue state together; a stale worker's does not
        // overwrite the result of the worker that took the URL over.
        var done = CrawlBatch()
        done.completions = taken.map { CrawlBatch.Completion(id: $0.id, state: .done, outcome: .indexed) }
        _ = try await store.commit(done, run: run, worker: a)
        var stale = CrawlBatch()
        stale.completions = [CrawlBatch.Completion(id: first[0].id, state: .failed, outcome: .error("stale"))]
        _ = try await store.commit(stale, run: run, worker: b)
        let states = try await storage.rows("SELECT id, state, lease_owner FROM crawl_url ORDER BY id")
        #expect(states.filter { $0["state"] == "done" }.count == 2)
        #expect(states.allSatisfy { $0["state"] != "failed" })
        #expect(states.filter { $0["lease_owner"] == a.owner }.count == 4)
    }

    @Test("leaving the pass gives every URL back at once", arguments: StoreEngine.allCases)
    func leaveReleases(engine: StoreEngine) async throws {
        let (storage, store, run) = try await Self.store(engine, pages: 3)
        defer { Task { await storage.cleanUp() } }
        let a = Self.remote("a")
        #expect(try await store.beginRun(seeds: [], now: 5, worker: a).id == run)
        _ = try await store.claimURLs(run: run, host: Self.host, worker: a, now: 10, leaseUntil: 100, limit: 3)
        _ = try await store.claimHostSlot(
            host: Self.host, run: run, worker: a, now: 10, slots: 2, spacing: 0, leaseUntil: 100, reusing: nil)
        try await store.leaveRun(run, worker: a, countersJSON: #"{"pagesFetched":2}"#, now: 11)
        let b = Self.remote("b")
        #expect(
            try await store.claimURLs(run: run, host: Self.host, worker: b, now: 12, leaseUntil: 20, limit: 9).count
                == 3)
        #expect(try await storage.rows("SELECT * FROM host_lease").isEmpty)
        let workers = try await store.runWorkers(run)
        #expect(workers.map(\.countersJSON).contains(#"{"pagesFetched":2}"#))
    }

    @Test(
        "a host's slots cap its requests across workers, and its delay holds for all of them",
        arguments: StoreEngine.allCases)
    func hostSlots(engine: StoreEngine) async throws {
        let (storage, store, _) = try await Self.store(engine, pages: 0)
        defer { Task { await storage.cleanUp() } }
        let (a, b, c) = (Self.remote("a"), Self.remote("b"), Self.remote("c"))
        func claim(_ worker: CrawlWorker, at now: Double, spacing: Double = 0, reusing: Int? = nil) async throws
            -> HostSlotClaim
        {
            try await store.claimHostSlot(
                host: Self.host, run: 1, worker: worker, now: now, slots: 2, spacing: spacing, leaseUntil: now + 60,
                reusing: reusing)
        }
        #expect(try await claim(a, at: 1) == .granted(slot: 0))
        #expect(try await claim(b, at: 1) == .granted(slot: 1))
        guard case .full(let until) = try await claim(c, at: 1) else {
            Issue.record("a third worker got a slot of a host capped at 2")
            return
        }
        #expect(until > 1 && until < 2)
        // a reuses its own slot; b gives its slot back in a commit, and c takes it.
        #expect(try await claim(a, at: 2, reusing: 0) == .granted(slot: 0))
        var release = CrawlBatch()
        release.releasedHostLeases = [.slot(1, of: Self.host)]
        _ = try await store.commit(release, run: 1, worker: b)
        #expect(try await claim(c, at: 3) == .granted(slot: 1))
        // The delay is the host's: a request at 10 with 5 s spacing holds every worker until 15.
        var free = CrawlBatch()
        free.releasedHostLeases = [.slot(0, of: Self.host)]
        _ = try await store.commit(free, run: 1, worker: a)
        #expect(try await claim(a, at: 10, spacing: 5) == .granted(slot: 0))
        #expect(try await claim(b, at: 11, spacing: 5) == .wait(until: 15))
        // A Retry-After pause, committed by one worker, holds the others.
        var pause = CrawlBatch()
        pause.hostPauses = [HostPause(host: Self.host, until: 100)]
        _ = try await store.commit(pause, run: 1, worker: a)
        #expect(try await claim(b, at: 20) == .wait(until: 100))
        // A slot whose holder stopped renewing is free once its lease runs out.
        #expect(try await claim(b, at: 101) == .granted(slot: 0))
    }

    @Test(
        "a worker takes at most its share of a host's slots while other workers of the pass are live",
        arguments: StoreEngine.allCases)
    func slotShare(engine: StoreEngine) async throws {
        let (storage, store, run) = try await Self.store(engine, pages: 0)
        defer { Task { await storage.cleanUp() } }
        let now = Date().timeIntervalSince1970
        let (a, b) = (Self.remote("a"), Self.remote("b"))
        for worker in [a, b] { _ = try await store.beginRun(seeds: [], now: now, worker: worker) }
        func claim(_ worker: CrawlWorker, reusing: Int? = nil) async throws -> HostSlotClaim {
            try await store.claimHostSlot(
                host: Self.host, run: run, worker: worker, now: now, slots: 4, spacing: 0, leaseUntil: now + 60,
                reusing: reusing)
        }
        // Three workers registered (the starter long gone, unseen for a lease): a share of 2 each.
        #expect(try await claim(a) == .granted(slot: 0))
        #expect(try await claim(a) == .granted(slot: 1))
        #expect(try await claim(a) != .granted(slot: 2))
        #expect(try await claim(b) == .granted(slot: 2))
        #expect(try await claim(b) == .granted(slot: 3))
        // Once b leaves the pass, a may use the whole host.
        try await store.leaveRun(run, worker: b, countersJSON: "{}", now: now)
        #expect(try await claim(a) == .granted(slot: 2))
        #expect(try await claim(a) == .granted(slot: 3))
        // A worker joins: a, holding all four, keeps a slot it reuses only within its share.
        let c = Self.remote("c")
        _ = try await store.beginRun(seeds: [], now: now, worker: c)
        #expect(try await claim(c) != .granted(slot: 0))
        #expect(try await claim(a, reusing: 3) != .granted(slot: 3))
        #expect(try await claim(a, reusing: 2) != .granted(slot: 2))
        #expect(try await claim(a, reusing: 1) == .granted(slot: 1))
        #expect(try await claim(c) == .granted(slot: 2))
        #expect(try await claim(c) == .granted(slot: 3))
    }

    @Test(
        "robots.txt is fetched by one worker; the others wait, then read its result or its failure",
        arguments: StoreEngine.allCases)
    func hostTasks(engine: StoreEngine) async throws {
        let (storage, store, run) = try await Self.store(engine, pages: 0)
        defer { Task { await storage.cleanUp() } }
        let (a, b) = (Self.remote("a"), Self.remote("b"))
        func claim(_ worker: CrawlWorker, at now: Double) async throws -> HostTaskClaim {
            try await store.claimHostTask(
                host: Self.host, name: "robots.txt", worker: worker, now: now, leaseUntil: now + 60, spacing: nil,
                storedSince: now - 3600, run: run)
        }
        #expect(try await claim(a, at: 1) == .claimed)
        #expect(try await claim(b, at: 1) != .claimed)
        var failed = CrawlBatch()
        failed.releasedHostLeases = [HostLeaseName(host: Self.host, name: "robots.txt")]
        failed.robotsStates = [
            HostRobotsState(host: Self.host, failures: 1, retryAt: 30, final: nil, detail: "robots.txt answered 503")
        ]
        _ = try await store.commit(failed, run: run, worker: a)
        let view = try await store.hostRobots(host: Self.host, run: run, fileName: "robots.txt")
        #expect(view.file == nil)
        #expect(view.state?.failures == 1 && view.state?.retryAt == 30)
        // The failure belongs to this pass only.
        #expect(try await store.hostRobots(host: Self.host, run: run + 1, fileName: "robots.txt").state == nil)
        // Not before the retry time, even once the lease is free.
        #expect(try await claim(b, at: 29) == .wait(until: 29))
        #expect(try await claim(b, at: 31) == .claimed)
        var good = CrawlBatch()
        good.releasedHostLeases = [HostLeaseName(host: Self.host, name: "robots.txt")]
        good.hostFiles = [
            HostFile(
                host: Self.host, name: "robots.txt", fetchedAt: 31, httpStatus: 200, body: Array("User-agent: *".utf8),
                detail: "rules")
        ]
        _ = try await store.commit(good, run: run, worker: b)
        #expect(try await store.hostRobots(host: Self.host, run: run, fileName: "robots.txt").file?.httpStatus == 200)
        // A worker that read the store before that commit does not fetch the file again.
        #expect(try await claim(a, at: 32) == .wait(until: 32))
    }

    @Test(
        "a worker of this machine whose process is gone loses its leases when another worker joins",
        arguments: StoreEngine.allCases)
    func deadLocalWorker(engine: StoreEngine) async throws {
        let (storage, store, run) = try await Self.store(engine, pages: 2)
        defer { Task { await storage.cleanUp() } }
        let gone = try RunningChild(["/bin/true"], directory: FileManager.default.temporaryDirectory)
        _ = await gone.waitForExit()
        let here = CrawlWorker.current()
        let dead = CrawlWorker(owner: "\(here.machine)/\(gone.pid)/dead", machine: here.machine, pid: gone.pid)
        #expect(try await store.beginRun(seeds: [], now: 1, worker: dead).id == run)
        let now = Date().timeIntervalSince1970
        let taken = try await store.claimURLs(
            run: run, host: Self.host, worker: dead, now: now, leaseUntil: now + 3600, limit: 9)
        #expect(taken.count == 2)
        // A remote worker waits for the lease; a local one sees that the process is gone.
        #expect(
            try await store.claimURLs(
                run: run, host: Self.host, worker: Self.remote("r"), now: now, leaseUntil: now + 60, limit: 9
            ).isEmpty)
        #expect(try await store.beginRun(seeds: [], now: now, worker: here).id == run)
        #expect(
            try await store.claimURLs(run: run, host: Self.host, worker: here, now: now, leaseUntil: now + 60, limit: 9)
                .count == 2)
    }
}
