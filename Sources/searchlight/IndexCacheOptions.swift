import ArgumentParser
import Foundation
import Logging
import Store

/// `--index-cache DIR`: where the commands that search keep a PostgreSQL store's replica (SPEC §1), one file
/// per store. A SQLite store has none: its own public index answers.
struct IndexCacheOptions: ParsableArguments {
    @Option(
        name: .customLong("index-cache"),
        help: ArgumentHelp(
            """
            Where a PostgreSQL store's search replica is kept (default $XDG_CACHE_HOME/searchlight, else \
            ~/.cache/searchlight). Unused with a SQLite store.
            """, valueName: "dir"))
    var directory: String?

    /// The folder: the option, else the XDG cache folder, else `~/.cache`.
    var resolvedDirectory: String {
        if let directory, !directory.isEmpty { return directory }
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/searchlight" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/searchlight"
    }

    /// What searches read on `index`: a SQLite store itself; a PostgreSQL store's replica, synced first unless
    /// `sync` is false (then it must exist already). `showsProgress` draws a rebuild's progress on a terminal
    /// (for a command whose standard error carries no log lines).
    ///
    /// - Throws: ``RuntimeError`` when the replica cannot be opened, built or synced.
    func searchSource(
        for index: any PublicIndexStore, sync: Bool = true, showsProgress: Bool = false, logger: Logger
    ) async throws -> SearchSource {
        if let source = index.ownSearchSource { return source }
        guard let database = index as? PostgresStore else {
            throw RuntimeError("the store \(index.displayName) has no search source")
        }
        let replica = try await openReplica(database, logger: logger)
        if sync {
            // A first build at a million items takes tens of seconds: shown on a terminal.
            let line = RebuildProgressLine()
            if showsProgress { await replica.onRebuildProgress { written in line.update(written) } }
            defer { line.finish() }
            do {
                _ = try await replica.sync()
            } catch {
                throw RuntimeError("cannot sync the index replica: \(error)")
            }
        } else if await !replica.openWithoutSync() {
            throw RuntimeError(
                "no index replica of this store in \(resolvedDirectory) (run once without --no-sync)")
        }
        return .replica(replica)
    }

    /// The replica of `database` in the folder.
    func openReplica(_ database: PostgresStore, logger: Logger) async throws -> IndexReplica {
        do {
            return try await IndexReplica.open(database: database, directory: resolvedDirectory, logger: logger)
        } catch {
            throw RuntimeError("cannot open the index replica in \(resolvedDirectory): \(error.message)")
        }
    }
}
