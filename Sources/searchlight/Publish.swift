import ArgumentParser
import Foundation
import Index
import Logging

extension Searchlight {
    /// `searchlight publish`: deduplicate and rebuild the public index.
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: "Deduplicate crawled pages and donated records, and rebuild the public index.",
            discussion: """
                Clusters records by canonical webpageURL (after redirects and rel=canonical) and by \
                relatedUniqueIdentifier, and publishes one item per cluster when something in it is public \
                (SPEC §4). Only clusters whose members changed are rewritten, in one transaction: searches \
                keep reading the previous index until it commits. Activity web pages never crawled are \
                queued for the next `searchlight crawl`. `searchlight report` explains every decision.
                """)

        @OptionGroup var store: StoreOptions

        @OptionGroup var engagement: EngagementOptions

        @Option(
            help: ArgumentHelp(
                "Days an item stays public after it was last seen; recorded in the store (default 30).",
                valueName: "days"))
        var expiryDays: Double?

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let expiryDays, !(expiryDays > 0 && expiryDays <= 36_500) {
                throw ValidationError("--expiry-days must be more than 0 and at most 36500.")
            }
        }

        func run() async throws {
            global.bootstrapLogging()
            let summary = try await store.withPublicIndex(creating: true) { index in
                try await Publisher(store: index, logger: Logger(label: "searchlight.publish")).publish(
                    engagementThreshold: engagement.engagementThreshold, expiryDays: expiryDays)
            }
            if json {
                print(try jsonText(summary))
                return
            }
            var lines = [
                "\(summary.published) published from \(summary.clusters) clusters "
                    + "(\(summary.pages) pages, \(summary.activities) activities, "
                    + "\(summary.searchableItems) searchable items); \(summary.duplicatesMerged) duplicates merged",
                "  rewritten: \(summary.changedClusters), removed: \(summary.removedClusters), "
                    + "unchanged: \(summary.unchangedClusters)",
                "  engagement threshold \(summary.engagementThreshold), expiry \(Self.days(summary.expiryDays)) days",
            ]
            if let unreadable = summary.unreadablePageItems {
                lines.append(
                    "  \(unreadable) stored page items could not be read (see the log); published without them")
            }
            if summary.pendingURLs > 0 {
                lines.append("  \(summary.pendingURLs) activity web pages queued for `searchlight crawl`")
            }
            for (reason, count) in summary.withheld.sorted(by: { $0.key < $1.key }) {
                lines.append("  withheld, \(reason): \(count)")
            }
            printText(lines.joined(separator: "\n"))
        }

        private static func days(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }
}
