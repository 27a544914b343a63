import ArgumentParser
import Donations
import Fetching
import Foundation
import Index
import Logging
import Store

extension Searchlight {
    /// `searchlight import`: load donated records into the store.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Load donated NSUserActivity and CSSearchableItem records (JSON Lines) into the store.",
            discussion: """
                One record per line, with Apple's property names (type userActivity, searchableItem or \
                delete). A bad line is reported as file:line: reason and skipped; the rest is imported. \
                A file that cannot be read (missing, a directory, no permission, a read error) is reported \
                as file: reason, and the other files are imported. \
                Importing the same file twice changes nothing. Below the engagement threshold (distinct \
                donors of one activity) the store keeps only salted hashes, never the content; of userInfo \
                only the requiredUserInfoKeys are kept.

                Exit status: 0 every line imported, 1 some lines were rejected or some file could not be read \
                (with --strict: nothing was written), 2 usage error, 3 runtime failure.
                """)

        @Argument(help: ArgumentHelp("Donation files (JSON Lines); '-' reads standard input.", valueName: "file"))
        var files: [String]

        @OptionGroup var store: StoreOptions

        @OptionGroup var engagement: EngagementOptions

        @Flag(help: "Import nothing unless every line is good.")
        var strict = false

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if files.filter({ $0 == "-" }).count > 1 {
                throw ValidationError("'-' (standard input) may be given once.")
            }
        }

        func run() async throws {
            global.bootstrapLogging()
            let store = try await self.store.openDonationStore()
            let importer = DonationImporter(store: store, logger: Logger(label: "searchlight.import"))
            let interactive = isatty(STDERR_FILENO) == 1
            let started = ContinuousClock.now
            let summary: ImportSummary
            do {
                summary = try await importer.importFiles(
                    files, engagementThreshold: engagement.engagementThreshold, strict: strict,
                    progress: { records in
                        guard interactive else { return }
                        let rate = Double(records) / max((ContinuousClock.now - started).seconds, 1e-3)
                        let text = String(format: "\r%d records, %.0f/s\u{1B}[K", records, rate)
                        FileHandle.standardError.write(Data(text.utf8))
                    })
                await StoreOptions.close(store)
            } catch let issue as DonationIssue {
                await StoreOptions.close(store)
                throw RuntimeError(issue.description)
            } catch {
                await StoreOptions.close(store)
                throw error
            }
            if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            for issue in summary.issues { printToStandardError(issue) }
            let listedLines = summary.issues.count - summary.unreadableFiles
            if summary.rejected > listedLines {
                printToStandardError("… and \(summary.rejected - listedLines) more rejected lines")
            }
            if json {
                print(try jsonText(summary))
            } else {
                printText(text(summary))
            }
            if summary.rejected > 0 || summary.unreadableFiles > 0 { throw Exit.partialFailure }
        }

        private func text(_ summary: ImportSummary) -> String {
            if strict && (summary.rejected > 0 || summary.unreadableFiles > 0) {
                return "import: \(summary.rejected) bad lines, \(summary.unreadableFiles) unreadable file(s); "
                    + "nothing was imported (--strict)"
            }
            let unreadable = summary.unreadableFiles > 0 ? " (\(summary.unreadableFiles) unreadable)" : ""
            var lines = [
                "\(summary.records) records read from \(summary.files) file(s)\(unreadable), \(summary.rejected) rejected",
                "  new donations: \(summary.newDonations) (engagement threshold \(summary.engagementThreshold))",
                "  activities stored or changed: \(summary.storedActivities)",
                "  below the threshold (hashes only): \(summary.belowThreshold)",
                "  searchable items added or changed: \(summary.searchableItems)",
                "  deletions: \(summary.deletions) (\(summary.deletedItems) items, "
                    + "\(summary.deletedActivities) activities)",
            ]
            for (reason, count) in summary.withheld.sorted(by: { $0.key < $1.key }) {
                lines.append("  withheld, \(reason): \(count)")
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// `value` as one line of JSON with sorted keys.
func jsonText(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
