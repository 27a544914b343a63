import Store

/// Donated pages on hosts no crawl was asked to visit (SPEC §4): an app speaks only for sites that associate
/// it, so such a page is fetched only once its host's apple-app-site-association names the donating app.
///
/// A host only donated URLs lead to (``HostState/isDonatedOnly``: outside the sites of every pass's seeds)
/// has its association file fetched before anything else. A file that names no app at all (or none served)
/// ends every URL of the host unfetched, robots.txt included; otherwise each donated URL is fetched only when
/// one of its donating apps is named, and ends `app-not-associated` when none is. Redirect hops are the
/// site's doing, not the app's, and go on as any URL of the host.
extension CrawlLoop {
    /// Whether `url` may be fetched as far as the association rule goes.
    func mayFetchDonated(_ url: FrontierURL, of host: HostState) -> Bool {
        guard host.isDonatedOnly, url.source == .activity else { return true }
        return url.donatingApps.contains { host.associatedApps.associates($0) }
    }

    /// Ends `url` unfetched: its host does not associate any app that donated it.
    mutating func refuseDonated(_ url: FrontierURL, of origin: String) {
        let apps = url.donatingApps.isEmpty ? "no app" : url.donatingApps.joined(separator: ", ")
        complete(
            url, state: .skipped, outcome: .appNotAssociated,
            detail: "\(origin)'s apple-app-site-association does not name \(apps)", counter: .appNotAssociated)
    }

    /// Ends the due URLs of `origin`, a donated-only host whose association file names no app, a batch at a
    /// time and without a request (no slot is needed). Returns 0: no request started.
    mutating func refuseDonatedURLs(of origin: String, now: Double) async throws -> Int {
        guard let host = hosts[origin], host.dueAt <= now else { return 0 }
        if !batch.isEmpty { try await flush() }
        let due = try await store.claimURLs(
            run: run.id, host: origin, worker: worker, now: now, leaseUntil: now + configuration.leaseDuration,
            limit: configuration.urlsPerClaim)
        guard !due.isEmpty else {
            hosts[origin]?.dueAt = .infinity
            return 0
        }
        logger.info(
            "donated pages not fetched: the host names no app in its apple-app-site-association",
            metadata: ["host": "\(origin)", "urls": "\(due.count)"])
        for url in due { refuseDonated(url, of: origin) }
        return 0
    }
}
