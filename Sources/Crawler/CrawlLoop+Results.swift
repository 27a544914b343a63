import Foundation
import Store

extension CrawlLoop {
    /// Takes one child task's result into the batch and the scheduling state.
    mutating func handle(_ output: TaskOutput) {
        switch output {
        case .timer(let deadline):
            if earliestTimer == deadline { earliestTimer = nil }
        case .committed(let notes):
            commitInFlight = false
            afterCommit(notes)
        case .page(let result):
            finish(result.frontier.host)
            if result.frontier.kind == .page { inFlightPages -= 1 }
            if result.frontier.kind == .sitemap, var host = hosts[result.frontier.host] {
                host.sitemapInFlight = false
                host.buffer.insert(contentsOf: host.deferredSitemaps, at: 0)
                host.deferredSitemaps.removeAll()
                hosts[result.frontier.host] = host
            }
            if let pause = result.hostPause, var host = hosts[result.frontier.host] {
                host.nextRequestAt = max(host.nextRequestAt, CrawlLoop.now + pause)
                hosts[result.frontier.host] = host
            }
            counters.add(result.counters)
            batch.completions.append(result.completion)
            if result.completion.state == .queued {
                pendingRetries.append((result.frontier.host, result.completion.notBefore))
            }
            if let page = result.page { batch.pages.append(page) }
            if result.unchanged { batch.unchangedPages.append(result.frontier.url) }
            if let gone = result.gone { batch.gonePages.append(gone) }
            batch.candidates.append(contentsOf: result.candidates)
            if let redirect = result.redirect { batch.redirects.append(redirect) }
            if let log = result.log { batch.fetchLog.append(log) }
        case .robots(let origin, let attempt):
            finish(origin)
            counters.robotsFetched += 1
            batch.fetchLog.append(contentsOf: attempt.log)
            if let entry = attempt.cacheEntry { batch.hostFiles.append(entry) }
            switch attempt.status {
            case .unavailable(let reason, let retryAfter):
                let failures = (hosts[origin]?.robotsFailures ?? 0) + 1
                hosts[origin]?.robotsFailures = failures
                if failures >= configuration.maxAttempts {
                    // Given up for this pass: every URL of the host ends as disallowed.
                    logger.warning("robots.txt unavailable, host skipped", metadata: ["host": "\(origin)"])
                    robotsReady(origin, attempt.status)
                } else {
                    let wait = min(retryAfter ?? configuration.backoff(attempt: failures), configuration.maxRetryAfter)
                    hosts[origin]?.robots = .blocked(until: CrawlLoop.now + wait, reason: reason)
                }
            case .refused(let reason):
                // Retrying cannot help: the host is given up for the pass at once, as an error.
                counters.fail(FrontierURL.addressRefusedOutcome)
                logger.warning(
                    "host refused by the address policy, skipped",
                    metadata: ["host": "\(origin)", "reason": "\(reason)"])
                robotsReady(origin, attempt.status)
            case .rules, .allowAll:
                hosts[origin]?.robotsFailures = 0
                robotsReady(origin, attempt.status)
                // robots.txt was a request too: the next one (apple-app-site-association, a sitemap, a
                // page) waits the host's spacing, which the file's Crawl-delay has just set.
                if let host = hosts[origin] {
                    hosts[origin]?.nextRequestAt = max(host.nextRequestAt, CrawlLoop.now + host.spacing)
                }
            }
        case .association(let origin, let attempt):
            finish(origin)
            if let log = attempt.log { batch.fetchLog.append(log) }
            batch.hostFiles.append(
                HostFile(
                    host: origin, name: "apple-app-site-association", fetchedAt: CrawlLoop.now,
                    httpStatus: attempt.httpStatus, body: nil,
                    detail: attempt.association == nil ? (attempt.diagnosis ?? "none") : (attempt.diagnosis ?? "valid"))
            )
            if let status = attempt.httpStatus, (200...399).contains(status), let diagnosis = attempt.diagnosis {
                // Served but unusable or imperfect: the site owner wants to hear it.
                logger.warning(
                    "apple-app-site-association: \(diagnosis)",
                    metadata: ["host": "\(origin)", "usable": "\(attempt.association != nil)"])
            }
            hosts[origin]?.association = .ready(attempt.association)
        }
    }

    private mutating func finish(_ origin: String) {
        inFlight -= 1
        hosts[origin]?.inFlight -= 1
    }

    /// Applies a known robots status: the host's spacing (capped `Crawl-delay`) and, once per
    /// invocation, its sitemaps (robots.txt `Sitemap:` lines and `/sitemap.xml`).
    mutating func robotsReady(_ origin: String, _ status: RobotsStatus) {
        guard var host = hosts[origin] else { return }
        host.robots = .ready(status)
        var spacing = configuration.delay
        if case .rules(let robots) = status, let crawlDelay = robots.crawlDelay(userAgent: configuration.productToken) {
            spacing = max(spacing, min(crawlDelay, configuration.maxCrawlDelay))
        }
        host.spacing = spacing
        switch status {
        case .unavailable, .refused:
            // Given up on this host for the pass: no further request of any kind goes to it.
            host.association = .ready(nil)
            host.sitemapsQueued = true
        case .rules, .allowAll:
            break
        }
        if !host.sitemapsQueued {
            host.sitemapsQueued = true
            var sitemapURLs: [String] = []
            if case .rules(let robots) = status { sitemapURLs = robots.sitemaps }
            sitemapURLs.append(origin + "/sitemap.xml")
            var rejections = LinkFilter.Rejections()
            for url in sitemapURLs {
                if let candidate = links.candidate(
                    url, kind: .sitemap, depth: 0, source: "robots", from: origin + "/robots.txt",
                    rejections: &rejections)
                {
                    batch.candidates.append(candidate)
                }
            }
        }
        hosts[origin] = host
    }

    /// Writes the batch in one transaction now and tells the hosts it concerns that the store has
    /// new work for them (before a buffer refill reads the store, and when the loop goes idle).
    mutating func flush() async throws {
        guard let (pending, notes) = prepareCommit() else { return }
        _ = try await store.commit(pending, run: run.id)
        afterCommit(notes)
    }

    /// Starts the batch's transaction as a child task; its `.committed` result comes back to the loop.
    mutating func startCommit(in group: inout ThrowingTaskGroup<TaskOutput, any Error>) {
        guard let (pending, notes) = prepareCommit() else { return }
        commitInFlight = true
        let store = store
        let runID = run.id
        group.addTask {
            // Not cancelled with the crawl: a result taken in is written (an unstructured task does
            // not inherit the cancellation).
            _ = try await Task { try await store.commit(pending, run: runID) }.value
            return .committed(notes)
        }
    }

    /// Takes the batch for a transaction: links already queued by this invocation dropped, the
    /// counters attached at most twice a second. `nil` when there is nothing to write.
    private mutating func prepareCommit() -> (CrawlBatch, CommitNotes)? {
        guard !batch.isEmpty else { return nil }
        var pending = batch
        batch = CrawlBatch()
        // Links a site repeats on every page were queued by an earlier commit of this pass: the
        // store would ignore them anyway, so they are not sent (most of a commit's statements).
        pending.candidates.removeAll { candidate in
            recentlyQueued[candidate.key].map { $0 <= candidate.depth } ?? false
        }
        // The counters ride along at most twice a second: encoding them for every commit cost more
        // than the commit's own SQL. After a kill -9 a resumed pass may so miss half a second of
        // counts (never pages: those are in the store either way).
        let now = CrawlLoop.now
        if now - countersWrittenAt >= 0.5 {
            pending.countersJSON = countersJSON(finishedNow: false)
            countersWrittenAt = now
        }
        if recentlyQueued.count + pending.candidates.count > Self.recentlyQueuedCapacity {
            // Emptied rather than trimmed: the links a site repeats come back at once.
            recentlyQueued.removeAll(keepingCapacity: true)
        }
        for candidate in pending.candidates where candidate.source == "link" {
            recentlyQueued[candidate.key] = min(recentlyQueued[candidate.key] ?? .max, candidate.depth)
        }
        let notes = CommitNotes(
            hosts: pending.candidates.map(\.host), retries: pendingRetries, ids: pending.completions.map(\.id))
        pendingRetries.removeAll()
        return (pending, notes)
    }

    /// After a transaction: the hosts of its new URLs and retries have work in the store.
    private mutating func afterCommit(_ notes: CommitNotes) {
        unwrittenIDs.subtract(notes.ids)
        for origin in notes.hosts { noteWork(origin, dueAt: 0) }
        for (origin, due) in notes.retries { noteWork(origin, dueAt: due) }
    }

    /// Records that `origin` has queued URLs due at `dueAt`, adding the host if new.
    mutating func noteWork(_ origin: String, dueAt: Double) {
        if hosts[origin] == nil {
            hosts[origin] = HostState(origin: origin, spacing: configuration.delay)
            hostOrder.append(origin)
        }
        let current = hosts[origin]?.dueAt ?? 0
        hosts[origin]?.dueAt = min(current, dueAt)
    }

    /// The earliest time some host could start a request; `nil` when the pass has nothing
    /// left. With `refreshFromStore`, first learns from the store which hosts have queued
    /// URLs and when (needed when resuming, and for retries due later).
    mutating func nextWake(now: Double, refreshFromStore: Bool) async throws -> Double? {
        if refreshFromStore {
            for (origin, due) in try await store.queuedHosts(run: run.id) {
                noteWork(origin, dueAt: due)
            }
        }
        return hosts.values.compactMap { $0.wakeTime(now: now) }.min()
    }
}

extension CrawlCounters {
    /// Adds `other`'s counts to these.
    mutating func add(_ other: CrawlCounters) {
        pagesFetched += other.pagesFetched
        pagesIndexed += other.pagesIndexed
        pagesUnchanged += other.pagesUnchanged
        pagesGone += other.pagesGone
        redirects += other.redirects
        bytes += other.bytes
        sitemapsRead += other.sitemapsRead
        sitemapURLs += other.sitemapURLs
        robotsFetched += other.robotsFetched
        retries += other.retries
        for (key, count) in other.skipped { skipped[key, default: 0] += count }
        for (key, count) in other.errors { errors[key, default: 0] += count }
    }
}
