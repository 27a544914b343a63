import ArgumentParser
import Store

/// `--store PATH`: the SQLite store every stateful command shares (SPEC §7).
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The SQLite store.", valueName: "path"))
    var store = "./searchlight.sqlite"

    /// Opens (creating if needed) the store.
    func open() throws -> Store {
        do {
            return try Store(path: store)
        } catch {
            throw RuntimeError("cannot open the store: \(error)")
        }
    }
}

/// A failure the command reports as a runtime failure (exit 3), with a clear message.
struct RuntimeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Where apple-app-site-association files are fetched from.
struct UniversalLinkOptions: ParsableArguments {
    @Flag(
        help: """
            Also fetch apple-app-site-association over plain http when the site is http (local test \
            sites; Apple itself only fetches https).
            """)
    var plainHTTPAppSiteAssociation = false
}
