import ArgumentParser
import Crawler
import Fetching
import Foundation
import Items
import Logging
import Markup
import Renderer
import Robots
import Scope

extension Searchlight {
    /// `searchlight validate URL`: fetch one page as the crawler would and check its markup.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Fetch one page as the crawler would, check its markup and preview its search result.",
            discussion: """
                Fetches URL (redirects followed and checked hop by hop, only public addresses unless \
                --allow-private-network), extracts its markup and reports each check as pass, warn or \
                fail with the reason, the App-result verdict and a preview card of the would-be result. \
                --html writes the report as a self-contained HTML page. Also fetches the host's robots.txt \
                (the decision for --user-agent's product token, Applebot by default, with the group and \
                rule that decided) and its apple-app-site-association file (over https, no redirects, \
                128 KB at most; whether it claims the URL for an app, or what is wrong with it).
                --render also renders the page in headless Chromium, every request it makes fetched by \
                Searchlight under robots.txt and the address policy, and shows the served and the rendered \
                page side by side: which fields only scripts supply, and each request that was refused and \
                why. The checks and the preview are then the rendered page's, as a crawl would index it.
                Exit status: 0 no check failed, 1 some check failed, 2 usage error, 3 the page could not \
                be fetched at all.
                """
        )

        @Argument(help: "The http or https URL of the page.")
        var url: String

        @Flag(help: "Print the report as JSON.")
        var json = false

        @Option(
            help: ArgumentHelp(
                "Also write the report and preview card as a self-contained HTML page.", valueName: "file"))
        var html: String?

        @Flag(help: "Also render the page in headless Chromium and compare it with the served page.")
        var render = false

        @Option(
            help: ArgumentHelp(
                "Seconds the render may take, from navigation to the serialized page.", valueName: "seconds"))
        var renderTimeout = 15.0

        @OptionGroup var network: NetworkOptions
        @OptionGroup var universalLinks: UniversalLinkOptions
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            global.bootstrapLogging()
            let logger = Logger(label: "searchlight.validate")
            let url = url
            let token = network.productToken
            let plainHTTP = universalLinks.plainHTTPAppSiteAssociation
            let render = render
            var limits = RenderLimits()
            limits.timeBudget = .milliseconds(Int(renderTimeout * 1000))
            let outcome = try await withFetcher(configuration: network.fetchConfiguration, logger: logger) {
                fetcher in
                let now = Date().timeIntervalSince1970
                let fetched: Result<RedirectedResponse, FetchError>
                do {
                    fetched = .success(try await fetcher.fetchFollowingRedirects(FetchRequest(url: url)))
                } catch let error as FetchError {
                    fetched = .failure(error)
                }
                guard let origin = try? CrawlURL(url).hostKey else {
                    return (fetched, [MarkupCheck](), [DeepLink](), PageRenderer.Outcome?.none)
                }
                let robots = await RobotsLoader.fetch(origin: origin, fetcher: fetcher, now: now)
                let association = await AppSiteAssociationLoader.fetch(
                    origin: origin, fetcher: fetcher, maxBytes: 128 * 1024, allowPlainHTTP: plainHTTP, now: now)
                let finalURL = (try? fetched.get().finalURL) ?? url
                let universal = SiteChecks.universalLinks(association, url: finalURL)
                var rendering: PageRenderer.Outcome?
                if render, case .success(let page) = fetched, (200...299).contains(page.response.status) {
                    rendering = await Self.rendered(
                        page.response, robots: robots.status, fetcher: fetcher, productToken: token, limits: limits,
                        logger: logger)
                }
                return (
                    fetched, [SiteChecks.robots(robots.status, url: url, productToken: token), universal.check],
                    universal.deepLinks, rendering
                )
            }
            let fetched = outcome.0
            let report = ValidationReport(
                url: url, fetched: fetched, siteChecks: outcome.1, universalLinks: outcome.2, rendering: outcome.3)
            if json {
                print(report.jsonValue.serialized())
            } else {
                printText(report.text)
            }
            if let html {
                do {
                    try Data(ValidationHTML(report: report).render().utf8).write(to: URL(fileURLWithPath: html))
                } catch {
                    throw ValidationError("cannot write --html \(html): \(error.localizedDescription)")
                }
            }
            if case .failure = fetched { throw Exit.runtimeFailure }
            if render, outcome.3?.error != nil { throw Exit.partialFailure }
            if report.checks.contains(where: { $0.status == .fail }) { throw Exit.partialFailure }
        }

        /// Renders `page` in a browser started for it alone, and stops the browser before returning.
        static func rendered(
            _ page: FetchResponse, robots: RobotsStatus, fetcher: Fetcher, productToken: String, limits: RenderLimits,
            logger: Logger
        ) async -> PageRenderer.Outcome {
            let pool = RenderPool(concurrency: 1, logger: logger)
            let renderer = PageRenderer(
                mode: .always, pool: pool,
                gateway: SubresourceGateway(
                    fetcher: fetcher, productToken: productToken,
                    maximumBodyBytes: min(fetcher.configuration.maxBodySize, limits.maximumBytes)),
                limits: limits)
            let outcome = await renderer.process(page, robots: robots, force: true)
            await pool.shutdown()
            return outcome
        }
    }
}
