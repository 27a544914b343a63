import Fetching
import Foundation
import Logging
import Renderer
import Scope
import Store

/// A crawl of one or more sites into a store (SPEC §3): a ``SQLiteStore`` file or a PostgreSQL store.
///
/// The frontier lives in the store, so memory does not grow with the URLs seen and a
/// crawl killed at any moment continues where it stopped when run again: a URL leaves
/// the queue only in the transaction that stores its result, so only what was in flight
/// is fetched again. One loop owns all scheduling state; fetches, robots.txt and
/// apple-app-site-association requests run as child tasks and hand back values.
///
/// Any number of crawlers (processes) may work on one store at once: each joins the running pass
/// as a ``CrawlWorker``, takes URLs with a lease, and shares each host's politeness (its request
/// slots, delay and pauses, its robots.txt and apple-app-site-association) through the store.
package struct Crawler: Sendable {
    /// How to crawl.
    package let configuration: CrawlConfiguration
    /// Where the frontier and the pages live.
    package let store: any CrawlStore
    let logger: Logger

    /// Creates a crawler. Nothing happens until ``run(progress:)``.
    package init(configuration: CrawlConfiguration, store: any CrawlStore, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.logger = logger
    }

    /// Crawls until the pass's frontier is exhausted, `maxPages` is reached, or the task is
    /// cancelled (then whatever finished is committed and the pass stays resumable).
    ///
    /// The pending activity web pages of the store (`pending_url`) join the pass as depth-0 entries
    /// (source `activity`): fetched on any site, under robots, politeness, the address policy, the
    /// patterns and the limits; the links found on them are followed only when in the seeds' scope
    /// (with no seeds, never). With no seeds and no unfinished pass, a pass starts when some are
    /// pending; each one's pending row goes in the transaction that writes its final state.
    ///
    /// With ``CrawlConfiguration/refresh``, a new pass is a refresh pass: it starts from every earlier
    /// pass's seeds (and those given) with the sitemaps and the pages due queued (``RevisitPolicy``), and
    /// queues a URL it finds only when that URL is new, due, or listed with a newer sitemap `lastmod`.
    /// - Parameter progress: Called about twice a second with a snapshot, from the crawl loop.
    /// - Throws: ``CrawlError`` for a bad configuration; ``StoreError`` when the store fails.
    package func run(progress: (@Sendable (CrawlProgress) -> Void)? = nil) async throws -> CrawlSummary {
        // Bad seeds or patterns are refused before anything is written to the store.
        if !configuration.seeds.isEmpty { _ = try scope(seeds: configuration.seeds) }
        let worker = CrawlWorker.current()
        let run = try await store.beginRun(
            seeds: configuration.seeds, now: Date().timeIntervalSince1970, worker: worker,
            refreshingAt: configuration.refresh ? configuration.revisit.now() : nil)
        if run.isResumed, configuration.refresh != (run.dueBefore != nil) {
            // A pass is of one kind: joining one that is unfinished continues it by its own rules.
            logger.warning(
                "joining the unfinished \(run.dueBefore == nil ? "full" : "refresh") pass \(run.id), which goes on as it started"
            )
        }
        // A resumed pass keeps the scope it started with, widened by any new seeds.
        var scopeSeeds = run.seeds
        for seed in configuration.seeds where !scopeSeeds.contains(seed) { scopeSeeds.append(seed) }
        let hasWork = !scopeSeeds.isEmpty || run.isResumed || run.due > 0 ? true : try await store.hasPendingURLs()
        guard hasWork else {
            // Nothing to crawl: no seeds given, no unfinished pass to continue, no pending activity URL.
            let now = Date().timeIntervalSince1970
            try await store.leaveRun(run.id, worker: worker, countersJSON: "{}", now: now)
            try await store.finishRun(run.id, force: true, now: now)
            var summary = CrawlSummary(
                run: run.id, resumed: false, finished: true, counters: CrawlCounters(), durationSeconds: 0, queued: 0)
            if run.dueBefore != nil { summary.refresh = RefreshCounts(counters: CrawlCounters()) }
            return summary
        }
        // Without seeds, a pass over the pending activity pages only: no site is in scope, so no
        // link found on them is followed.
        let scope = try scopeSeeds.isEmpty ? siteLessScope() : scope(seeds: scopeSeeds)
        // The sites some crawl was asked to visit; donated URLs elsewhere wait for their host's association.
        let ownSites = Self.sites(of: try await store.seedsOfEveryPass() + scopeSeeds)
        logger.info(
            "crawl pass \(run.id) \(run.isResumed ? "joined" : "started")",
            metadata: ["seeds": "\(scopeSeeds)", "worker": "\(worker.owner)"])
        let configuration = configuration
        let store = store
        let logger = logger
        return try await withFetcher(configuration: configuration.fetch, logger: logger) { fetcher in
            let renderer = Self.renderer(configuration, fetcher: fetcher, logger: logger)
            var loop = CrawlLoop(
                configuration: configuration, store: store, fetcher: fetcher, run: run, worker: worker,
                links: LinkFilter(
                    scope: scope, maxDepth: configuration.maxDepth,
                    fingerprint: SitemapEntryDigest.fingerprint(
                        seeds: scopeSeeds, configuration: configuration)),
                ownSites: ownSites, logger: logger,
                progress: progress, renderer: renderer)
            do {
                let summary = try await loop.crawl()
                await renderer?.pool.shutdown()
                return summary
            } catch {
                // No browser outlives the crawl, however it ends.
                await renderer?.pool.shutdown()
                throw error
            }
        }
    }
}

extension Crawler {
    /// The pass's renderer: a pool that starts browsers only when a page is rendered, and one gateway, so
    /// robots.txt, scripts and style sheets are fetched once per pass.
    static func renderer(_ configuration: CrawlConfiguration, fetcher: Fetcher, logger: Logger) -> PageRenderer? {
        guard configuration.render != .never else { return nil }
        let gateway = SubresourceGateway(
            fetcher: fetcher, productToken: configuration.productToken,
            spacing: .milliseconds(Int(configuration.delay * 1000)),
            maximumBodyBytes: min(configuration.fetch.maxBodySize, configuration.renderLimits.maximumBytes))
        return PageRenderer(
            mode: configuration.render, pool: RenderPool(concurrency: configuration.renderConcurrency, logger: logger),
            gateway: gateway, limits: configuration.renderLimits)
    }

    /// The scope of `seeds` under the configured patterns and URL length.
    func scope(seeds: [String]) throws(CrawlError) -> CrawlScope {
        do {
            return try CrawlScope(
                seeds: seeds, include: configuration.includePatterns, exclude: configuration.excludePatterns,
                maxURLLength: configuration.maxURLLength)
        } catch {
            throw CrawlError(message: "invalid scope: \(error)")
        }
    }

    /// The sites of `seeds` (each a valid seed's registrable domain, or its host), `nil` for none.
    static func sites(of seeds: [String]) -> CrawlScope? {
        let valid = seeds.filter { (try? CrawlScope(seeds: [$0])) != nil }
        return valid.isEmpty ? nil : try? CrawlScope(seeds: valid)
    }

    /// The scope of a pass without seeds: no site, the configured patterns and URL length.
    func siteLessScope() throws(CrawlError) -> CrawlScope {
        do {
            return try CrawlScope.withoutSites(
                include: configuration.includePatterns, exclude: configuration.excludePatterns,
                maxURLLength: configuration.maxURLLength)
        } catch {
            throw CrawlError(message: "invalid scope: \(error)")
        }
    }
}

/// A crawl that cannot start: a bad pattern or seed.
package struct CrawlError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    package var description: String { message }
}

/// What a child task of the crawl loop hands back.
enum TaskOutput: Sendable {
    case page(PageResult)
    case robots(origin: String, RobotsLoader.Attempt)
    case association(origin: String, AppSiteAssociationLoader.Attempt)
    case timer(deadline: Double)
    /// A background store transaction finished; what the scheduler learns from it.
    case committed(CommitNotes)

    /// Whether this is a finished transaction (waited for even when the crawl is cancelled).
    var isCommit: Bool {
        if case .committed = self { return true }
        return false
    }
}

/// What the scheduler learns once a transaction is written: hosts with new URLs in the store, and
/// hosts with URLs queued again for a retry at a given time.
struct CommitNotes: Sendable {
    var hosts: [String]
    var retries: [(String, Double)]
}
