import ArgumentParser
import Donations
import Index
import Logging
import Store

extension Searchlight {
    /// `searchlight delete`: Apple's deletion rules, from the command line.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete donated searchable items, and the activities related to them.",
            discussion: """
                Like CSSearchableIndex's deletions: by uniqueIdentifier, by domainIdentifier (hierarchical: \
                deleting 'a' also deletes 'a.b'), or everything of a bundle. Activities whose \
                relatedUniqueIdentifier names a deleted item are deleted with it. The public index changes at \
                the next `searchlight publish`.
                """)

        @Option(
            name: .customLong("identifier"), help: ArgumentHelp("A uniqueIdentifier (repeatable).", valueName: "id"))
        var identifiers: [String] = []

        @Option(
            name: .customLong("domain"), help: ArgumentHelp("A domainIdentifier (repeatable).", valueName: "domain"))
        var domains: [String] = []

        @Flag(help: "Delete every searchable item of the bundle.")
        var all = false

        @Option(help: ArgumentHelp("The app's bundle identifier.", valueName: "bundle"))
        var bundle: String

        @OptionGroup var store: StoreOptions

        @Flag(help: "Print the result as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            let ways = [!identifiers.isEmpty, !domains.isEmpty, all].filter { $0 }.count
            guard ways == 1 else { throw ValidationError("Give exactly one of --identifier, --domain or --all.") }
            guard !bundle.isEmpty, !(identifiers + domains).contains(where: \.isEmpty) else {
                throw ValidationError("Identifiers, domains and the bundle must not be empty.")
            }
        }

        func run() async throws {
            global.bootstrapLogging()
            let store = try await self.store.openDonationStore()
            let importer = DonationImporter(store: store, logger: Logger(label: "searchlight.delete"))
            let deletion = DeletionRecord(
                bundleIdentifier: bundle, uniqueIdentifiers: identifiers.isEmpty ? nil : identifiers,
                domainIdentifiers: domains.isEmpty ? nil : domains, all: all ? true : nil)
            let outcome: Result<ImportSummary, StoreError>
            do {
                outcome = .success(try await importer.delete(deletion))
            } catch {
                outcome = .failure(error)
            }
            await StoreOptions.close(store)
            let result = try outcome.get()
            if json {
                print(
                    try jsonText(
                        DeleteResult(deletedItems: result.deletedItems, deletedActivities: result.deletedActivities)))
            } else {
                print(
                    "deleted \(result.deletedItems) searchable items and \(result.deletedActivities) related activities"
                )
            }
        }

        private struct DeleteResult: Encodable {
            var deletedItems: Int
            var deletedActivities: Int
        }
    }
}
