import ArgumentParser
import Fetching
import Foundation
import Items
import Logging
import Markup

extension Searchlight {
    /// `searchlight validate URL`: fetch one page as the crawler would and check its markup.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch one page as the crawler would, check its markup and preview its search result.",
            discussion: """
                Fetches URL (redirects followed and checked hop by hop, only public addresses unless \
                --allow-private-network), extracts its markup and reports each check as pass, warn or \
                fail with the reason, the App-result verdict and a preview card of the would-be result. \
                --html writes the report as a self-contained HTML page. robots.txt and universal-link \
                checks join when the crawler lands (issue 4).
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

        @OptionGroup var network: NetworkOptions
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            global.bootstrapLogging()
            let logger = Logger(label: "searchlight.validate")
            let request = FetchRequest(url: url)
            let fetched: Result<RedirectedResponse, FetchError>
            do {
                let response = try await withFetcher(configuration: network.fetchConfiguration, logger: logger) {
                    fetcher in
                    try await fetcher.fetchFollowingRedirects(request)
                }
                fetched = .success(response)
            } catch let error as FetchError {
                fetched = .failure(error)
            }
            let report = ValidationReport(url: url, fetched: fetched)
            if json {
                print(report.jsonValue.serialized())
            } else {
                print(report.text)
            }
            if let html {
                do {
                    try Data(ValidationHTML(report: report).render().utf8).write(to: URL(fileURLWithPath: html))
                } catch {
                    throw ValidationError("cannot write --html \(html): \(error.localizedDescription)")
                }
            }
            if case .failure = fetched { throw Exit.runtimeFailure }
            if report.checks.contains(where: { $0.status == .fail }) { throw Exit.partialFailure }
        }
    }
}
