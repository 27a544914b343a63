import ArgumentParser
import Crawler
import Dispatch
import Fetching
import Foundation
import Index
import Logging
import Robots
import Store

extension Searchlight {
    /// `searchlight crawl`: crawl sites into the store, resuming an unfinished pass.
    struct Crawl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "crawl",
            abstract: "Crawl sites into the store, politely, resuming an unfinished crawl.",
            discussion: """
                Follows links and sitemaps within the seeds' registrable domains (or the --include and \
                --exclude patterns), obeys robots.txt for the product token of --user-agent (Applebot by \
                default, with its Googlebot fallback), and stores each page's searchable item. It also fetches \
                the web pages of imported activities that wait for verification (on any site; their links \
                are followed only within the seeds' sites). With no URL, it continues the pending frontier: an \
                unfinished crawl and those activity pages. If a previous crawl was interrupted (even by \
                kill -9), the same command continues it: only what was in flight is fetched again. A finished \
                crawl run again re-crawls with conditional requests. Ctrl-C stops cleanly and keeps the crawl resumable.

                Freshness: every visit sets a page's next visit. An unchanged page waits twice as long as last \
                time (up to --max-revisit), a changed one half as long (down to --min-revisit); Cache-Control \
                or Expires may bring it sooner, and every page is due before its published item would expire. \
                A sitemap lastmod newer than the last fetch makes a page due at once. --refresh revisits only \
                what is due (plus the sitemaps, robots.txt when its copy is a day old, and URLs new to the \
                frontier), from the seeds of every earlier crawl: run it and publish from a scheduler \
                (Docs/freshness.md).

                Many workers: start several crawls on one store (on this machine, or on many with a \
                PostgreSQL store) and they share the running crawl: each URL is fetched by one of them (it \
                takes it with a lease of --lease seconds, renewed while it works), the per-host limit, the \
                delay, Crawl-delay and Retry-After pauses hold for all of them together, and robots.txt is \
                fetched once per host. A worker that dies loses its URLs to the others when its leases run \
                out (at once when it ran on the same machine). The summary counts the whole crawl.

                Exit status: 0 when every URL ended well (fetched, or skipped by a rule), 1 when some \
                failed for good after their retries (the summary counts them by kind; the store's \
                fetch_log names each), 2 usage error, 3 runtime failure (e.g. the store cannot be opened).

                Patterns: '*' matches any run of characters; a pattern containing '://' matches the whole \
                URL, otherwise the path and query (e.g. --exclude '/private/*').

                Rendering: with --render auto (the default) a page whose served HTML lacks a title, a \
                description or structured data but has scripts, or has an empty application root, is \
                rendered in headless Chromium and read from its DOM; --render always renders every page, \
                never none. Every request a rendered page makes goes through this crawler (its user agent, \
                robots.txt, address policy, size limits and delay); images, media and fonts are not fetched, \
                and scripts and style sheets are fetched once per pass. A page whose own scripts robots.txt \
                disallows is not rendered. The summary counts each decision and every render error.
                """)

        @Argument(help: "Seed URLs (http or https).")
        var urls: [String] = []

        @OptionGroup var store: StoreOptions
        @OptionGroup var network: NetworkOptions
        @OptionGroup var universalLinks: UniversalLinkOptions
        @OptionGroup(title: "Rendering") var rendering: RenderOptions

        @Option(help: "Stop after this process fetched this many pages (each worker counts its own).")
        var maxPages: Int?

        @Option(help: "Follow links at most this many steps from a seed (sitemap-listed pages count as 1).")
        var maxDepth: Int?

        @Option(help: ArgumentHelp("Minimum seconds between two requests to one host.", valueName: "seconds"))
        var delay = 0.25

        @Option(help: ArgumentHelp("The longest robots.txt Crawl-delay honoured.", valueName: "seconds"))
        var maxCrawlDelay = 10.0

        @Option(
            help: ArgumentHelp(
                "The longest pause accepted from a Retry-After header (429, 503, robots.txt).", valueName: "seconds"))
        var maxRetryAfter = 3600.0

        @Option(help: ArgumentHelp("Crawl only URLs matching a pattern (repeatable).", valueName: "pattern"))
        var include: [String] = []

        @Option(help: ArgumentHelp("Never crawl URLs matching a pattern (repeatable).", valueName: "pattern"))
        var exclude: [String] = []

        @Option(help: ArgumentHelp("URLs longer than this are not crawled.", valueName: "bytes"))
        var maxURLLength = 2048

        @Option(
            help: ArgumentHelp(
                "How long the URLs this worker takes stay its own without renewal (renewed while it runs).",
                valueName: "seconds"))
        var lease = 60.0

        @Flag(
            help: ArgumentHelp(
                "Revisit only what is due: pages whose next visit has come, pages a sitemap lists with a "
                    + "newer lastmod, and new URLs found on the way (robots.txt and sitemaps are read again)."))
        var refresh = false

        @Option(
            help: ArgumentHelp(
                "The shortest wait before a page is visited again (a page that changed waits half as long "
                    + "as before, down to this).", valueName: "seconds"))
        var minRevisit = 3600.0

        @Option(
            help: ArgumentHelp(
                "The longest wait before a page is visited again (an unchanged page waits twice as long as "
                    + "before, up to this).", valueName: "seconds"))
        var maxRevisit = 30 * 86_400.0

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let maxPages, maxPages < 1 { throw ValidationError("--max-pages must be at least 1.") }
            if let maxDepth, maxDepth < 0 { throw ValidationError("--max-depth must not be negative.") }
            guard (0...86_400).contains(delay), (0...86_400).contains(maxCrawlDelay),
                (0...86_400).contains(maxRetryAfter)
            else {
                throw ValidationError(
                    "--delay, --max-crawl-delay and --max-retry-after must be between 0 and 86400 seconds.")
            }
            guard minRevisit >= 60, maxRevisit <= 3650 * 86_400, minRevisit <= maxRevisit else {
                throw ValidationError(
                    "--min-revisit must be at least 60 seconds and at most --max-revisit, which is at most 10 years.")
            }
            guard (1...86_400).contains(lease) else {
                throw ValidationError("--lease must be between 1 and 86400 seconds.")
            }
            // Extraction already drops links over 4,096 bytes (PageExtractor.maxURLLength).
            guard (32...4096).contains(maxURLLength) else {
                throw ValidationError("--max-url-length must be between 32 and 4096.")
            }
        }

        func run() async throws {
            global.bootstrapLogging()
            let logger = Logger(label: "searchlight.crawl")
            let store = try await self.store.openCrawlStore()
            var configuration = CrawlConfiguration(
                seeds: urls, productToken: network.productToken, fetch: network.fetchConfiguration,
                concurrency: network.concurrency, perHostConcurrency: network.perHost, delay: delay,
                maxCrawlDelay: maxCrawlDelay, maxPages: maxPages, maxDepth: maxDepth, includePatterns: include,
                excludePatterns: exclude, maxURLLength: maxURLLength)
            configuration.maxRetryAfter = maxRetryAfter
            configuration.leaseDuration = lease
            configuration.fetch.userAgent = userAgentHeader
            configuration.allowsPlainHTTPAppSiteAssociation = universalLinks.plainHTTPAppSiteAssociation
            configuration.refresh = refresh
            configuration.render = rendering.render
            configuration.renderConcurrency = rendering.renderConcurrency
            configuration.renderLimits = rendering.limits
            configuration.revisit = RevisitPolicy(
                minimumInterval: minRevisit, maximumInterval: maxRevisit,
                itemLifetime: await Self.itemLifetime(in: store))
            let crawler = Crawler(configuration: configuration, store: store, logger: logger)
            let line = CrawlStatusLine(enabled: !json && isatty(STDERR_FILENO) == 1)
            let task = Task { try await crawler.run { line.draw($0) } }
            let signals = SignalCancellation(cancelling: task)
            let summary: CrawlSummary
            do {
                summary = try await task.value
                await Self.close(store)
            } catch let error as CrawlError {
                line.clear()
                await Self.close(store)
                throw ValidationError(error.message)
            } catch {
                await Self.close(store)
                throw error
            }
            signals.stop()
            line.clear()
            if json {
                print(try CrawlSummaryText.json(summary, storePath: store.displayName))
            } else {
                printText(CrawlSummaryText.text(summary, storePath: store.displayName))
            }
            // SPEC §7: 1 when some records failed; the summary names the kinds (the fetch log has each URL).
            if !summary.counters.errors.isEmpty { throw Exit.partialFailure }
        }

        /// How long a published item stays public after its page's last fetch (`publish --expiry-days`, as
        /// recorded in the store, else the default), in seconds: every page is due again before that.
        static func itemLifetime(in store: any CrawlStore) async -> Double {
            let index = store as? any PublicIndexStore
            let recorded = try? await index?.recordedExpiryDays()
            return (recorded ?? IndexSettings.defaultExpiryDays) * 86_400
        }

        /// Closes a PostgreSQL store's connections (a SQLite store closes with its last reference).
        static func close(_ store: any CrawlStore) async {
            if let database = store as? PostgresStore { await database.close() }
        }

        /// The User-Agent header: as given, or `TOKEN/0.1 (…)` when only a product token was given.
        var userAgentHeader: String {
            let given = network.userAgent
            if given == FetchConfiguration.defaultUserAgent || given.contains("/") || given.contains(" ") {
                return given
            }
            return "\(given)/0.1 (Searchlight; an open App Search crawler)"
        }
    }
}

/// Cancels a task on SIGINT or SIGTERM, so a crawl commits what finished and stays resumable.
final class SignalCancellation {
    private let sources: [any DispatchSourceSignal]

    init<Success: Sendable>(cancelling task: Task<Success, any Error>) {
        sources = [SIGINT, SIGTERM].map { signalNumber in
            // The default disposition would kill the process before the final commit.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
    }

    /// Stops listening and restores the default dispositions.
    func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
