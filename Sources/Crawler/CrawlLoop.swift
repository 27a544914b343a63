import Fetching
import Foundation
import Logging
import Scope
import Store

/// The one owner of a crawl's scheduling state. It starts child tasks, takes their
/// results back, batches writes, and decides when the pass is over.
struct CrawlLoop {
    let configuration: CrawlConfiguration
    let store: any CrawlStore
    let fetcher: Fetcher
    let run: CrawlRunInfo
    /// This process in the store: the owner of its leases.
    let worker: CrawlWorker
    let links: LinkFilter
    /// The sites of every pass's seeds: a host outside them is one only donated URLs lead to (`nil`: none).
    let ownSites: CrawlScope?
    let logger: Logger
    let progress: (@Sendable (CrawlProgress) -> Void)?
    /// Renders the pages the render rule picks; `nil` with `--render never`.
    let renderer: PageRenderer?

    var hosts: [String: HostState] = [:]
    var hostOrder: [String] = []
    var cursor = 0
    var counters: CrawlCounters
    var batch = CrawlBatch()
    /// Whether a background transaction is running; results arriving meanwhile wait for the next.
    var commitInFlight = false
    var inFlight = 0
    var inFlightPages = 0
    /// When the hosts' queues were last read from the store, and whether other workers held leases then.
    var lastRefreshAt = 0.0
    var othersActive = false
    /// When this worker's leases were last renewed.
    var renewedAt: Double
    /// Hosts whose URLs went back to the queue in the unflushed batch, with when they are due.
    var pendingRetries: [(String, Double)] = []
    var earliestTimer: Double?
    var lastProgressAt = 0.0
    var countersWrittenAt = 0.0
    /// URLs queued by this invocation's commits, with their depth: a bounded memo (emptied when
    /// full), not the frontier — the store holds that, so memory stays flat as a crawl grows.
    var recentlyQueued: [String: Int] = [:]
    static let recentlyQueuedCapacity = 4096
    let startedAt: Double

    init(
        configuration: CrawlConfiguration, store: any CrawlStore, fetcher: Fetcher, run: CrawlRunInfo,
        worker: CrawlWorker,
        links: LinkFilter, ownSites: CrawlScope?, logger: Logger, progress: (@Sendable (CrawlProgress) -> Void)?,
        renderer: PageRenderer? = nil
    ) {
        self.renderer = renderer
        self.ownSites = ownSites
        self.configuration = configuration
        self.store = store
        self.fetcher = fetcher
        self.run = run
        self.worker = worker
        self.links = links
        self.logger = logger
        self.progress = progress
        // This worker's own counts; the pass's are the sum of its workers' (``CrawlTotals``).
        self.counters = CrawlCounters()
        self.startedAt = Self.now
        self.renewedAt = startedAt
    }

    static var now: Double { Date().timeIntervalSince1970 }

    /// Whether `maxPages` pages were fetched or are being fetched.
    var pageBudgetSpent: Bool {
        guard let maxPages = configuration.maxPages else { return false }
        return counters.pagesFetched + inFlightPages >= maxPages
    }

    /// Runs the pass to its end (or cancellation) and returns the summary.
    mutating func crawl() async throws -> CrawlSummary {
        try await queueSeeds()
        try await queuePending()
        var idleSpins = 0
        try await withThrowingTaskGroup(of: TaskOutput.self) { group in
            while !Task.isCancelled {
                let now = Self.now
                // Group commit: everything that arrived since the last transaction goes into the next
                // one, started at once when none is running. Nothing waits on purpose, so a killed crawl
                // refetches only what was in flight (fetching, or finished but not yet written), and a
                // busy crawl writes many results per transaction.
                if !commitInFlight, !batch.isEmpty { startCommit(in: &group) }
                try await renewLeases(now: now)
                let started = try await dispatch(into: &group, now: now)
                try await reportProgress(now: now)
                if inFlight == 0, commitInFlight {
                    // The running transaction may queue new URLs: the pass's end is decided once it is
                    // written (its result is the next child task to finish).
                } else if inFlight == 0 {
                    try await flush()
                    if pageBudgetSpent { break }
                    guard let wake = try await nextWake(now: Self.now, refreshFromStore: true) else { break }
                    if wake <= Self.now {
                        // Work is due: dispatch again, but never spin if nothing could start.
                        idleSpins = started > 0 ? 0 : idleSpins + 1
                        if idleSpins < 3 { continue }
                        idleSpins = 0
                        schedule(timerAt: Self.now + 0.01, in: &group)
                    } else {
                        schedule(timerAt: wake, in: &group)
                    }
                } else if let wake = try await nextWake(
                    now: now, refreshFromStore: now - lastRefreshAt >= Self.refreshInterval),
                    wake > now
                {
                    schedule(timerAt: wake, in: &group)
                }
                // A worker waiting on slow fetches still renews its leases in time.
                schedule(timerAt: renewedAt + configuration.leaseDuration / 3, in: &group)
                guard let output = try await group.next() else { continue }
                // Once cancelled, fetches end with CancellationError: those URLs were in flight
                // and stay queued for the resumed pass, so nothing more is taken in.
                if Task.isCancelled, !output.isCommit { break }
                handle(output)
            }
            group.cancelAll()
            // A background transaction still running is waited for (it is not cancelled).
            while commitInFlight, let output = try await group.next() {
                if output.isCommit { handle(output) }
            }
        }
        let cancelled = Task.isCancelled
        // Commit what finished even when cancelled: an unstructured task does not inherit the
        // cancellation, so GRDB's async write runs. Then the worker leaves the pass: the URLs it took
        // and did not finish go back to the queue at once, for a rerun or the other workers.
        let finalBatch = batch
        let store = store
        let runID = run.id
        let worker = worker
        let json = countersJSON()
        let budgetSpent = pageBudgetSpent
        _ = try await Task { try await store.commit(finalBatch, run: runID, worker: worker) }.value
        batch = CrawlBatch()
        try await Task { try await store.leaveRun(runID, worker: worker, countersJSON: json, now: Self.now) }.value
        let finished = !cancelled
        if finished {
            try await Task { try await store.finishRun(runID, force: budgetSpent, now: Self.now) }.value
        }
        let queued = try await Task { try await store.queuedCount(run: runID) }.value
        let totals: [CrawlWorkerRecord]
        if finished, !budgetSpent, queued == 0 {
            totals = try await Self.settledWorkers(of: runID, in: store, lease: configuration.leaseDuration)
        } else {
            totals = try await Task { try await store.runWorkers(runID) }.value
        }
        let pass = CrawlTotals(workers: totals, legacyCountersJSON: run.countersJSON)
        var summary = CrawlSummary(
            run: run.id, resumed: run.isResumed, finished: finished, counters: pass.counters,
            durationSeconds: pass.seconds, queued: queued, workers: pass.workers, workerCounters: counters)
        if run.dueBefore != nil { summary.refresh = RefreshCounts(counters: pass.counters) }
        return summary
    }

    /// The pass's workers once the others have left it too. When the pass is over, the others are only
    /// storing their last results and counters (which ride along with their commits at most twice a
    /// second); waiting for their rows — a worker found dead, or unseen for a lease, no longer counts —
    /// makes every worker's summary count the whole pass. The wait is bounded by ``settleLimit``.
    static func settledWorkers(of run: Int64, in store: any CrawlStore, lease: Double) async throws
        -> [CrawlWorkerRecord]
    {
        let deadline = now + min(lease, settleLimit)
        while true {
            let workers = try await Task { try await store.runWorkers(run) }.value
            let moment = now
            let leaving = workers.contains { $0.endedAt == nil && moment - $0.seenAt < lease }
            guard leaving, moment < deadline else { return workers }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The longest a worker waits for the others to leave a finished pass.
    static let settleLimit = 5.0

    /// How often the hosts' queues are read again from the store while requests are in flight.
    static let refreshInterval = 1.0

    /// Renews this worker's leases a third of their duration after the last renewal, so fetches,
    /// buffered URLs and host slots stay this worker's while it runs.
    mutating func renewLeases(now: Double) async throws {
        guard now - renewedAt >= configuration.leaseDuration / 3 else { return }
        renewedAt = now
        try await store.renewLeases(
            worker: worker, run: run.id, now: now, leaseUntil: now + configuration.leaseDuration)
    }

    /// Adds a timer child task unless one at or before `deadline` is pending.
    mutating func schedule(timerAt deadline: Double, in group: inout ThrowingTaskGroup<TaskOutput, any Error>) {
        if let earliestTimer, earliestTimer <= deadline { return }
        earliestTimer = deadline
        let delay = max(0, deadline - Self.now)
        group.addTask {
            try? await Task.sleep(for: .milliseconds(Int(delay * 1000) + 1))
            return .timer(deadline: deadline)
        }
    }

    /// This worker's counters as stored with its row in the pass.
    func countersJSON() -> String {
        let data = (try? JSONEncoder().encode(counters)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    mutating func reportProgress(now: Double) async throws {
        guard let progress, now - lastProgressAt >= 0.5 else { return }
        lastProgressAt = now
        let elapsed = max(now - startedAt, 0.001)
        // One indexed count, twice a second, and only when someone watches.
        let queued = try await store.queuedCount(run: run.id)
        progress(
            CrawlProgress(
                pagesDone: counters.pagesFetched, queued: queued, inFlight: inFlight,
                rate: Double(counters.pagesFetched) / elapsed,
                errors: counters.errors, skipped: counters.skipped))
    }
}
