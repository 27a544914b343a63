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
            hosts[result.frontier.host]?.busySlots -= 1
            if result.frontier.kind == .page { inFlightPages -= 1 }
            if result.frontier.kind == .sitemap, var host = hosts[result.frontier.host] {
                host.sitemapInFlight = false
                host.buffer.insert(contentsOf: host.deferredSitemaps, at: 0)
                host.deferredSitemaps.removeAll()
                hosts[result.frontier.host] = host
            }
            // A slot whose request ended goes back when nothing else of the host waits to be sent.
            releaseSlotsWithoutWork(of: result.frontier.host, now: CrawlLoop.now)
            if let pause = result.hostPause, var host = hosts[result.frontier.host] {
                // The pause is the host's: every worker keeps it, through the store.
                host.nextRequestAt = max(host.nextRequestAt, CrawlLoop.now + pause)
                hosts[result.frontier.host] = host
                batch.hostPauses.append(HostPause(host: result.frontier.host, until: host.nextRequestAt))
            }
            counters.add(result.counters)
            batch.completions.append(result.completion)
            if result.completion.state == .queued {
                pendingRetries.append((result.frontier.host, result.completion.notBefore))
            } else {
                countRevisit(result.frontier)
            }
            if let page = result.page { batch.pages.append(page) }
            if result.unchanged { batch.unchangedPages.append(result.frontier.url) }
            if let gone = result.gone { batch.gonePages.append(gone) }
            batch.candidates.append(contentsOf: result.candidates)
            if let redirect = result.redirect { batch.redirects.append(redirect) }
            if let entries = result.sitemapEntries { batch.hostFiles.append(entries) }
            if let log = result.log { batch.fetchLog.append(log) }
        case .robots(let origin, let attempt):
            finish(origin)
            counters.robotsFetched += 1
            batch.fetchLog.append(contentsOf: attempt.log)
            if let entry = attempt.cacheEntry { batch.hostFiles.append(entry) }
            // The result and the end of the fetch's lease are committed together: a worker waiting for
            // the file finds it, or the attempt's failure, in the store.
            batch.releasedHostLeases.append(HostLeaseName(host: origin, name: RobotsLoader.fileName))
            robotsFetched(origin, attempt)
        case .association(let origin, let attempt):
            finish(origin)
            if let log = attempt.log { batch.fetchLog.append(log) }
            // Kept with its body: the other workers of the pass read the rules from the store.
            batch.hostFiles.append(
                HostFile(
                    host: origin, name: AppSiteAssociationLoader.fileName, fetchedAt: CrawlLoop.now,
                    httpStatus: attempt.httpStatus, body: attempt.body,
                    detail: attempt.association == nil ? (attempt.diagnosis ?? "none") : (attempt.diagnosis ?? "valid"))
            )
            batch.releasedHostLeases.append(HostLeaseName(host: origin, name: AppSiteAssociationLoader.fileName))
            let apps = attempt.apps  // parses the file: once
            if attempt.association == nil, !apps.bundles.isEmpty {
                // No universal links, but apps associated through its other services: a site's choice.
                logger.info(
                    "apple-app-site-association names apps but declares no universal links",
                    metadata: ["host": "\(origin)", "apps": "\(apps.bundles.sorted())"])
            } else if let status = attempt.httpStatus, (200...399).contains(status), let diagnosis = attempt.diagnosis {
                // Served but unusable or imperfect: the site owner wants to hear it.
                logger.warning(
                    "apple-app-site-association: \(diagnosis)",
                    metadata: ["host": "\(origin)", "usable": "\(attempt.association != nil)"])
            }
            hosts[origin]?.association = .ready(attempt.association)
            hosts[origin]?.associatedApps = apps
        }
    }

    /// Applies this worker's robots.txt attempt, and shares a failure's count, backoff or giving up
    /// with the other workers through the store.
    private mutating func robotsFetched(_ origin: String, _ attempt: RobotsLoader.Attempt) {
        let now = CrawlLoop.now
        switch attempt.status {
        case .unavailable(let reason, let retryAfter):
            let failures = (hosts[origin]?.robotsFailures ?? 0) + 1
            hosts[origin]?.robotsFailures = failures
            if failures >= configuration.maxAttempts {
                // Given up for this pass: every URL of the host ends as disallowed.
                logger.warning("robots.txt unavailable, host skipped", metadata: ["host": "\(origin)"])
                batch.robotsStates.append(
                    HostRobotsState(
                        host: origin, failures: failures, retryAt: 0, final: RobotsLoader.unavailableKey,
                        detail: reason))
                robotsReady(origin, attempt.status)
            } else {
                let wait = min(retryAfter ?? configuration.backoff(attempt: failures), configuration.maxRetryAfter)
                batch.robotsStates.append(
                    HostRobotsState(host: origin, failures: failures, retryAt: now + wait, final: nil, detail: reason))
                hosts[origin]?.robots = .blocked(until: now + wait, reason: reason)
            }
        case .refused(let reason):
            // Retrying cannot help: the host is given up for the pass at once, as an error.
            counters.fail(CrawlOutcome.addressRefused.text)
            logger.warning(
                "host refused by the address policy, skipped", metadata: ["host": "\(origin)", "reason": "\(reason)"])
            batch.robotsStates.append(
                HostRobotsState(host: origin, failures: 1, retryAt: 0, final: RobotsLoader.refusedKey, detail: reason))
            robotsReady(origin, attempt.status)
        case .rules, .allowAll:
            hosts[origin]?.robotsFailures = 0
            robotsReady(origin, attempt.status)
            // robots.txt was a request too: the next one (apple-app-site-association, a sitemap, a page)
            // waits the host's spacing, which the file's Crawl-delay has just set; for every worker.
            if let host = hosts[origin] {
                let next = max(host.nextRequestAt, now + host.spacing)
                hosts[origin]?.nextRequestAt = next
                batch.hostPauses.append(HostPause(host: origin, until: next))
            }
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
                    url, kind: .sitemap, depth: 0, source: .robots, from: origin + "/robots.txt",
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
        _ = try await store.commit(pending, run: run.id, worker: worker)
        afterCommit(notes)
    }

    /// Starts the batch's transaction as a child task; its `.committed` result comes back to the loop.
    mutating func startCommit(in group: inout ThrowingTaskGroup<TaskOutput, any Error>) {
        guard let (pending, notes) = prepareCommit() else { return }
        commitInFlight = true
        let store = store
        let runID = run.id
        let worker = worker
        group.addTask {
            // Not cancelled with the crawl: a result taken in is written (an unstructured task does
            // not inherit the cancellation).
            _ = try await Task { try await store.commit(pending, run: runID, worker: worker) }.value
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
            pending.countersJSON = countersJSON()
            countersWrittenAt = now
        }
        if recentlyQueued.count + pending.candidates.count > Self.recentlyQueuedCapacity {
            // Emptied rather than trimmed: the links a site repeats come back at once.
            recentlyQueued.removeAll(keepingCapacity: true)
        }
        for candidate in pending.candidates where candidate.source == .link {
            recentlyQueued[candidate.key] = min(recentlyQueued[candidate.key] ?? .max, candidate.depth)
        }
        let notes = CommitNotes(hosts: pending.candidates.map(\.host), retries: pendingRetries)
        pendingRetries.removeAll()
        return (pending, notes)
    }

    /// After a transaction: the hosts of its new URLs and retries have work in the store.
    private mutating func afterCommit(_ notes: CommitNotes) {
        for origin in notes.hosts { noteWork(origin, dueAt: 0) }
        for (origin, due) in notes.retries { noteWork(origin, dueAt: due) }
    }

    /// Records that `origin` has queued URLs due at `dueAt`, adding the host if new.
    mutating func noteWork(_ origin: String, dueAt: Double) {
        if hosts[origin] == nil {
            var host = HostState(origin: origin, spacing: configuration.delay)
            host.isDonatedOnly = !(ownSites?.containsSite(of: origin + "/") ?? false)
            hosts[origin] = host
            hostOrder.append(origin)
        }
        let current = hosts[origin]?.dueAt ?? 0
        hosts[origin]?.dueAt = min(current, dueAt)
    }

    /// The earliest time some host could start a request; `nil` when the pass has nothing
    /// left. With `refreshFromStore`, first learns from the store which hosts have queued
    /// URLs and when (needed when resuming, and for retries due later).
    ///
    /// While other workers hold leases in the pass, their commits may queue new URLs at any time: the
    /// wake is then at most ``othersPollInterval`` away, and the pass is not over for this worker until
    /// nothing is queued or leased.
    mutating func nextWake(now: Double, refreshFromStore: Bool) async throws -> Double? {
        if refreshFromStore {
            lastRefreshAt = now
            othersActive = false
            // The store's answer replaces what the hosts knew: a time learnt from another worker's lease
            // is stale once that worker stored the URL's result.
            var due: [String: Double] = [:]
            for queued in try await store.queuedHosts(run: run.id, worker: worker) {
                due[queued.host] = queued.due
                if queued.leasedByOthers { othersActive = true }
            }
            for origin in hostOrder where due[origin] == nil { hosts[origin]?.dueAt = .infinity }
            for (origin, time) in due {
                noteWork(origin, dueAt: time)
                hosts[origin]?.dueAt = time
            }
        }
        let wake = hosts.values.compactMap { $0.wakeTime(now: now) }.min()
        guard othersActive else { return wake }
        return min(wake ?? .infinity, now + Self.othersPollInterval)
    }

    /// How often a worker looks in the store for new URLs while other workers of the pass hold leases.
    static let othersPollInterval = 0.25
}

extension CrawlCounters {
    /// Adds `other`'s counts to these.
    mutating func add(_ other: CrawlCounters) {
        pagesFetched += other.pagesFetched
        pagesIndexed += other.pagesIndexed
        pagesUnchanged += other.pagesUnchanged
        pagesChanged += other.pagesChanged
        pagesRevisited += other.pagesRevisited
        pagesGone += other.pagesGone
        redirects += other.redirects
        bytes += other.bytes
        sitemapsRead += other.sitemapsRead
        sitemapsUnchanged += other.sitemapsUnchanged
        sitemapURLs += other.sitemapURLs
        robotsFetched += other.robotsFetched
        retries += other.retries
        for (key, count) in other.skipped { skipped[key, default: 0] += count }
        for (key, count) in other.errors { errors[key, default: 0] += count }
        for (key, count) in other.rendering { rendering[key, default: 0] += count }
        for (key, count) in other.subresources { subresources[key, default: 0] += count }
    }
}
