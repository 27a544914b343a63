/// The crawl's part of the storage API: the frontier, its leases, each host's shared politeness, and the
/// crawl workers of a pass (SPEC §3). One implementation per engine — ``SQLiteStore`` on a SQLite file,
/// `PostgresStore` on PostgreSQL — with the same contract, which `CrawlStoreContractTests` checks on
/// both. The crawl loop is the only caller; every method is one short transaction (or one read), safe to
/// call from any task, and safe against other processes doing the same on the same store.
///
/// Times are seconds since 1970. A worker's leases (URLs, host slots and tasks) last until the `leaseUntil`
/// it gave and are renewed by ``renewLeases(worker:run:now:leaseUntil:)``; a lease that ran out is free.
package protocol CrawlStore: Sendable {
    /// How the store is named in summaries and errors (a path, or a URL without its password).
    var displayName: String { get }

    /// Joins the unfinished pass if there is one, else starts a new one, and registers `worker` in it; with
    /// `refreshingAt`, a new pass is a refresh pass from that time (see ``RefreshRules``).
    func beginRun(
        seeds: [String], now: Double, worker: CrawlWorker, refreshingAt: Double?
    ) async throws(StoreError) -> CrawlRunInfo
    /// Marks the pass finished when nothing of it is queued, or at once with `force`.
    func finishRun(_ id: Int64, force: Bool, now: Double) async throws(StoreError)
    /// The seeds of every pass the store has seen, each once, oldest first: the sites some crawl was asked to
    /// crawl, as against those only donated URLs lead to.
    func seedsOfEveryPass() async throws(StoreError) -> [String]
    /// The hosts with URLs queued in pass `run`, each with the earliest time one is free and due for `worker`.
    func queuedHosts(run: Int64, worker: CrawlWorker) async throws(StoreError) -> [QueuedHost]
    /// URLs still queued in pass `run`.
    func queuedCount(run: Int64) async throws(StoreError) -> Int
    /// The stored copy of a per-host file, if any.
    func hostFile(host: String, name: String) async throws(StoreError) -> HostFile?
    /// Pending activity web pages in key order after `key`, at most `limit`.
    func pendingURLs(after key: String?, limit: Int) async throws(StoreError) -> [PendingURL]
    /// Whether any activity web page waits for the crawler.
    func hasPendingURLs() async throws(StoreError) -> Bool

    /// Takes up to `limit` due URLs of `host` that nobody holds, sitemaps first, by depth: each is leased
    /// to `worker` until `leaseUntil`; no two workers get the same URL while its lease runs.
    func claimURLs(
        run: Int64, host: String, worker: CrawlWorker, now: Double, leaseUntil: Double, limit: Int
    ) async throws(StoreError) -> [FrontierURL]
    /// Takes one of `host`'s `slots` request slots for `worker` (see ``SQLiteStore`` for the share rule).
    func claimHostSlot(
        host: String, run: Int64, worker: CrawlWorker, now: Double, slots: Int, spacing: Double,
        leaseUntil: Double, reusing: Int?
    ) async throws(StoreError) -> HostSlotClaim
    /// Takes the host's once-per-pass fetch `name` unless another worker holds it or stored its result.
    func claimHostTask(
        host: String, name: String, worker: CrawlWorker, now: Double, leaseUntil: Double, spacing: Double?,
        storedSince: Double, run: Int64
    ) async throws(StoreError) -> HostTaskClaim
    /// What `host`'s robots.txt is in pass `run`: the stored copy and the pass's failed attempts.
    func hostRobots(host: String, run: Int64, fileName: String) async throws(StoreError) -> HostRobotsView

    /// Writes `batch` for pass `run` in one transaction; returns how many URLs were new to the frontier.
    func commit(_ batch: CrawlBatch, run: Int64, worker: CrawlWorker?) async throws(StoreError) -> Int
    /// Renews every lease `worker` holds until `leaseUntil` and frees those of dead workers of its machine.
    func renewLeases(worker: CrawlWorker, run: Int64, now: Double, leaseUntil: Double) async throws(StoreError)
    /// Ends `worker`'s part in the pass: its counters stored, its leases freed.
    func leaveRun(_ run: Int64, worker: CrawlWorker, countersJSON: String, now: Double) async throws(StoreError)
    /// The workers that took part in pass `run`, for the pass's totals.
    func runWorkers(_ run: Int64) async throws(StoreError) -> [CrawlWorkerRecord]
}

extension CrawlStore {
    /// Joins the unfinished pass if there is one, else starts a new full pass.
    package func beginRun(seeds: [String], now: Double, worker: CrawlWorker) async throws(StoreError) -> CrawlRunInfo {
        try await beginRun(seeds: seeds, now: now, worker: worker, refreshingAt: nil)
    }
}
