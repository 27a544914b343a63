import Fetching
import Store

extension CrawlLoop {
    /// How long a host's slots are reused without asking the store (hosts without a delay only).
    static let slotRecheckInterval = 1.0

    /// Puts the seeds in the frontier (a no-op for seeds already queued in this pass).
    mutating func queueSeeds() async throws {
        var rejections = LinkFilter.Rejections()
        for seed in configuration.seeds {
            if let candidate = links.candidate(
                seed, kind: .page, depth: 0, source: .seed, from: nil, rejections: &rejections)
            {
                batch.candidates.append(candidate)
            } else {
                logger.warning("seed not crawled: outside the scope or limits", metadata: ["url": "\(seed)"])
            }
        }
        try await flush()
    }

    /// Pending activity web pages read from the store per transaction.
    static let pendingSliceSize = 512

    /// Puts the pending activity web pages in the frontier as depth-0 entries of this pass, a slice
    /// per transaction (a no-op for those already queued). Their pending rows stay until their
    /// entries end; those that are no URL at all end here, as skipped.
    mutating func queuePending() async throws {
        var after: String?
        var queued = 0
        var rejections = LinkFilter.Rejections()
        while true {
            let slice = try await store.pendingURLs(after: after, limit: Self.pendingSliceSize)
            guard let last = slice.last else { break }
            after = last.key
            for pending in slice {
                switch links.decide(pending, rejections: &rejections) {
                case .queue(let candidate):
                    batch.candidates.append(candidate)
                    queued += 1
                case .unusable(let unusable):
                    batch.unusablePending.append(unusable)
                    counters.skip(.invalidURL)
                    logger.warning(
                        "pending activity URL is not crawlable",
                        metadata: ["url": "\(pending.url)", "reason": "\(unusable.detail)"])
                case .wait:
                    continue
                }
            }
            try await flush()
        }
        // Left pending for a crawl whose patterns and URL length admit them.
        counters.skip(rejections)
        if queued > 0 { logger.info("pending activity URLs queued", metadata: ["count": "\(queued)"]) }
    }

    /// Starts whatever may start now, host by host in turn; returns how many tasks started.
    ///
    /// The turn goes to the host after the last one that started something (after the first host tried,
    /// when none did), and stays put when the worker is at its concurrency cap. Moving it by one on every
    /// loop pass, as it once did, let the number of passes per request decide the turn: with a pass for the
    /// result and one for its commit, two hosts and one request at a time, it came back to the same host
    /// every time, and the other host's slot, held for URLs known due, waited unused in this worker for as
    /// long as the first host had work.
    mutating func dispatch(into group: inout ThrowingTaskGroup<TaskOutput, any Error>, now: Double) async throws -> Int
    {
        guard !hostOrder.isEmpty, inFlight < configuration.concurrency else { return 0 }
        var started = 0
        var next = cursor + 1
        for step in 0..<hostOrder.count {
            guard inFlight < configuration.concurrency else { break }
            let position = (cursor + step) % hostOrder.count
            let count = try await startWork(for: hostOrder[position], into: &group, now: now)
            if count > 0 { next = position + 1 }
            started += count
        }
        cursor = next % max(hostOrder.count, 1)
        return started
    }

    /// Starts robots.txt, apple-app-site-association or frontier requests for one host,
    /// as far as its phase, its caps and its delay allow.
    ///
    /// robots.txt and apple-app-site-association are fetched once per host per pass, by whichever
    /// worker takes their lease in the store; the others wait for the result to appear there.
    private mutating func startWork(
        for origin: String, into group: inout ThrowingTaskGroup<TaskOutput, any Error>, now: Double
    ) async throws -> Int {
        guard let host = hosts[origin] else { return 0 }
        if host.isDonatedOnly {
            // A host only donated URLs lead to: its association file first, and nothing else of it (not even
            // robots.txt) unless the file names an app (see `CrawlLoop+Association`).
            if let started = try await associationStep(for: origin, into: &group, now: now) { return started }
            if hosts[origin]?.associatedApps.bundles.isEmpty == true {
                return try await refuseDonatedURLs(of: origin, now: now)
            }
        }
        switch host.robots {
        case .loading:
            return 0
        case .blocked(let until, _) where now < until:
            return 0
        case .unknown, .blocked:
            if try await startRobots(for: origin, into: &group, now: now) { return 1 }
            guard hosts[origin]?.robotsStatus != nil else { return 0 }
        case .ready:
            break
        }
        if let started = try await associationStep(for: origin, into: &group, now: now) { return started }
        return try await startFrontierURLs(for: origin, into: &group, now: now)
    }

    /// Moves the host's apple-app-site-association on: `nil` once it is known, else how many requests
    /// started (the file's, or none while another worker fetches it or the host's delay runs).
    private mutating func associationStep(
        for origin: String, into group: inout ThrowingTaskGroup<TaskOutput, any Error>, now: Double
    ) async throws -> Int? {
        switch hosts[origin]?.association ?? .unknown {
        case .unknown:
            if try await startAssociation(for: origin, into: &group, now: now) { return 1 }
            return hosts[origin]?.associationReady == true ? nil : 0
        case .waiting(let until):
            guard now >= until else { return 0 }
            if try await startAssociation(for: origin, into: &group, now: now) { return 1 }
            return hosts[origin]?.associationReady == true ? nil : 0
        case .loading:
            return 0
        case .ready:
            return nil
        }
    }

    /// Learns the host's robots.txt from the store (a cached copy, or the pass's failed attempts), else
    /// takes its fetch unless another worker has. Returns whether a request started.
    private mutating func startRobots(
        for origin: String, into group: inout ThrowingTaskGroup<TaskOutput, any Error>, now: Double
    ) async throws -> Bool {
        let view = try await store.hostRobots(host: origin, run: run.id, fileName: RobotsLoader.fileName)
        if let status = RobotsLoader.cached(view.file, now: now, lifetime: configuration.robotsCacheLifetime) {
            robotsReady(origin, status)
            return false
        }
        if let state = view.state {
            if let status = RobotsLoader.givenUp(state) {
                robotsReady(origin, status)
                return false
            }
            if state.retryAt > now {
                hosts[origin]?.robots = .blocked(until: state.retryAt, reason: state.detail ?? "robots.txt unavailable")
                return false
            }
        }
        let claim = try await store.claimHostTask(
            host: origin, name: RobotsLoader.fileName, worker: worker, now: now,
            leaseUntil: now + configuration.leaseDuration, spacing: nil,
            storedSince: now - min(configuration.robotsCacheLifetime, 24 * 3600), run: run.id)
        guard claim == .claimed else {
            if case .wait(let until) = claim {
                hosts[origin]?.robots = .blocked(until: until, reason: "another worker is fetching robots.txt")
            }
            return false
        }
        hosts[origin]?.robots = .loading
        // This worker's own failures may still be in a commit the store has not applied yet: the
        // count only grows within a pass, so the larger of the two is the truth.
        let known = hosts[origin]?.robotsFailures ?? 0
        hosts[origin]?.robotsFailures = max(view.state?.failures ?? 0, known)
        begin(origin)
        let fetcher = fetcher
        group.addTask {
            .robots(origin: origin, await RobotsLoader.fetch(origin: origin, fetcher: fetcher, now: now))
        }
        return true
    }

    /// Takes the host's apple-app-site-association from the store when a worker fetched it in this
    /// pass, else takes its fetch unless another worker has. Returns whether a request started.
    private mutating func startAssociation(
        for origin: String, into group: inout ThrowingTaskGroup<TaskOutput, any Error>, now: Double
    ) async throws -> Bool {
        guard let host = hosts[origin], now >= host.nextRequestAt else { return false }
        let stored = try await store.hostFile(host: origin, name: AppSiteAssociationLoader.fileName)
        if let stored, stored.fetchedAt >= run.startedAt {
            hosts[origin]?.association = .ready(AppSiteAssociationLoader.rules(from: stored))
            hosts[origin]?.associatedApps = AppSiteAssociationLoader.apps(from: stored)
            return false
        }
        let claim = try await store.claimHostTask(
            host: origin, name: AppSiteAssociationLoader.fileName, worker: worker, now: now,
            leaseUntil: now + configuration.leaseDuration, spacing: host.spacing, storedSince: run.startedAt,
            run: run.id)
        guard claim == .claimed else {
            if case .wait(let until) = claim { hosts[origin]?.association = .waiting(until: until) }
            return false
        }
        hosts[origin]?.association = .loading
        hosts[origin]?.nextRequestAt = now + host.spacing
        begin(origin)
        let fetcher = fetcher
        let maxBytes = configuration.maxAppSiteAssociationBytes
        let plainHTTP = configuration.allowsPlainHTTPAppSiteAssociation
        group.addTask {
            .association(
                origin: origin,
                await AppSiteAssociationLoader.fetch(
                    origin: origin, fetcher: fetcher, maxBytes: maxBytes, allowPlainHTTP: plainHTTP, now: now))
        }
        return true
    }

    private mutating func startFrontierURLs(
        for origin: String, into group: inout ThrowingTaskGroup<TaskOutput, any Error>, now: Double
    ) async throws -> Int {
        var started = 0
        releaseSlotsWithoutWork(of: origin, now: now)
        while inFlight < configuration.concurrency, !pageBudgetSpent, let host = hosts[origin],
            host.inFlight < configuration.perHostConcurrency, now >= host.nextRequestAt,
            now >= host.slotsFullUntil || host.idleSlot != nil,
            let status = host.robotsStatus
        {
            if host.buffer.isEmpty {
                guard host.dueAt <= now else { break }
                // URLs only with a slot to send them through (see `CrawlLoop+Slots`); one in use counts, as
                // its request ends soon. Asking the store for another while all are busy would be a write
                // for every wait.
                if host.heldSlots.isEmpty {
                    guard try await reserveSlot(of: origin, now: now) else { return started }
                    continue
                }
                if !batch.isEmpty { try await flush() }
                let due = try await store.claimURLs(
                    run: run.id, host: origin, worker: worker, now: now,
                    leaseUntil: now + configuration.leaseDuration, limit: configuration.urlsPerClaim)
                hosts[origin]?.buffer.append(contentsOf: due)
                if due.isEmpty {
                    hosts[origin]?.dueAt = .infinity
                    // Nothing more for this worker on this host now: its idle slots go back to the others.
                    releaseIdleSlots(of: origin)
                    break
                }
                continue
            }
            guard let url = hosts[origin]?.buffer.popFirst() else { break }
            if url.kind == .sitemap, host.sitemapsDispatched >= configuration.maxSitemapsPerHost {
                complete(url, state: .skipped, outcome: .sitemapLimit, detail: nil, counter: .sitemapLimit)
                continue
            }
            if url.kind == .sitemap, host.sitemapInFlight {
                // Still queued in the store: kept out of refills until it is dispatched and written.
                hosts[origin]?.deferredSitemaps.append(url)
                continue
            }
            if !mayFetchDonated(url, of: host) {
                refuseDonated(url, of: origin)
                continue
            }
            let decision = status.decision(for: url.url, productToken: configuration.productToken)
            guard decision.allowed else {
                // Two outcomes: the rules disallow the URL (final for this robots.txt: the bridge withholds
                // an activity page as `robotsDisallowed`), or no robots.txt could be read (the host was
                // given up for this pass).
                switch status {
                case .unavailable(let reason, _):
                    complete(
                        url, state: .skipped, outcome: .robotsUnavailable, detail: reason, counter: .robotsUnavailable,
                        finding: .failed)
                    continue
                case .refused(let reason):
                    complete(
                        url, state: .failed, outcome: .addressRefused, detail: reason, counter: .addressRefused,
                        finding: .failed)
                    continue
                case .rules, .allowAll:
                    break
                }
                var detail = "disallowed"
                if let rule = decision.rule {
                    detail = "\(rule.allow ? "Allow" : "Disallow"): \(rule.pattern) (line \(rule.line))"
                    if let group = decision.group { detail += " in group '\(group)'" }
                }
                complete(
                    url, state: .skipped, outcome: .robotsDisallowed, detail: detail, counter: .robots,
                    finding: .unchanged)
                continue
            }
            // A request slot of the host, shared with the other workers, and the host's delay. With no
            // delay, a slot this worker holds is used again without asking the store, which it still
            // asks every ``slotRecheckInterval`` to learn of a pause another worker was told to make.
            if let idle = host.idleSlot, host.spacing == 0, now - host.slotsCheckedAt < Self.slotRecheckInterval {
                takeSlot(idle, of: origin, reusing: idle)
            } else {
                let claim = try await store.claimHostSlot(
                    host: origin, run: run.id, worker: worker, now: now, slots: configuration.perHostConcurrency,
                    spacing: host.spacing, leaseUntil: now + configuration.leaseDuration, reusing: host.idleSlot)
                hosts[origin]?.slotsCheckedAt = now
                let slot: Int
                switch claim {
                case .granted(let granted):
                    slot = granted
                case .wait(let until):
                    hosts[origin]?.buffer.prepend(url)
                    hosts[origin]?.nextRequestAt = max(host.nextRequestAt, until)
                    return started
                case .full(let until):
                    hosts[origin]?.buffer.prepend(url)
                    hosts[origin]?.slotsFullUntil = until
                    // The slot it meant to use again is no longer its own (given back, or taken over).
                    loseSlot(host.idleSlot, of: origin)
                    return started
                }
                takeSlot(slot, of: origin, reusing: host.idleSlot)
            }
            if url.kind == .sitemap {
                hosts[origin]?.sitemapsDispatched += 1
                hosts[origin]?.sitemapInFlight = true
            }
            if url.kind == .page { inFlightPages += 1 }
            begin(origin)
            hosts[origin]?.nextRequestAt = now + host.spacing
            let fetcher = fetcher
            var context = PageContext(
                configuration: configuration, links: links,
                universalLinks: {
                    if case .ready(let rules) = host.association { return rules }
                    return nil
                }(), renderer: renderer, robots: status)
            if url.kind == .sitemap, run.dueBefore != nil, url.contentHash != nil {
                // What it listed at its last read under this scope: a failed read only costs the saving.
                let stored = try? await store.hostFile(host: url.host, name: SitemapEntryDigest.fileName(for: url.url))
                if let stored, SitemapEntryDigest.isWritten(underScope: links.fingerprint, detail: stored.detail) {
                    context.knownSitemapEntries = stored.body.flatMap(SitemapEntryDigest.init(body:))
                }
            }
            group.addTask { .page(await PageTask.run(url, fetcher: fetcher, context: context, now: now)) }
            started += 1
        }
        return started
    }

    /// Counts a request starting for `origin`.
    private mutating func begin(_ origin: String) {
        inFlight += 1
        hosts[origin]?.inFlight += 1
    }

    /// Ends a frontier URL without a request (robots, limits); with `finding`, schedules its next visit as
    /// a visit that found that would (a URL ended by a limit of this pass is due again at once).
    mutating func complete(
        _ url: FrontierURL, state: FrontierState, outcome: CrawlOutcome, detail: String?, counter: SkipReason,
        finding: RevisitPolicy.Finding? = nil
    ) {
        var completion = CrawlBatch.Completion(
            id: url.id, state: state, outcome: outcome, detail: detail, attempts: url.attempts)
        if let finding { configuration.revisit.scheduleNextVisit(of: url, after: finding, in: &completion) }
        batch.completions.append(completion)
        counters.skip(counter)
        countRevisit(url)
    }

    /// Counts a page of an earlier pass taken up again, at its final completion in this pass (a fetch cut
    /// short by a stop, or retried, is counted once, when it ends).
    mutating func countRevisit(_ url: FrontierURL) {
        if url.kind == .page, url.wasVisited { counters.pagesRevisited += 1 }
    }
}
