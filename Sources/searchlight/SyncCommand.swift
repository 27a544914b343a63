import ArgumentParser
import Foundation
import Logging
import Store
import Synchronization

extension Searchlight {
    /// `searchlight sync`: brings a PostgreSQL store's search replica up to date (or builds it), as `search`
    /// and `serve` do before they answer; for warming a new search node and for measuring.
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Bring a PostgreSQL store's local search replica up to date (built the first time).",
            discussion: """
                Reads what the store's publishes changed since the replica's generation, from one snapshot, \
                and applies it in one transaction; rebuilds the replica into a new file when it is missing, \
                damaged, of another store, or older than the store's kept history (Docs/postgres.md). Prints \
                the generations and counts (--json: one object). A SQLite store has no replica: its own index \
                answers searches, and sync has nothing to do.

                Exit status: 0 synced, 2 usage error, 3 runtime failure (the store or the replica cannot be \
                read or written).
                """)

        @Flag(help: "Print the outcome as JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        @OptionGroup var indexCache: IndexCacheOptions

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            global.bootstrapLogging()
            try await store.withPublicIndex { index in
                guard let database = index as? PostgresStore else {
                    printText(json ? #"{"replica":false}"# : "A SQLite store answers searches itself: no replica.")
                    return
                }
                let replica = try await indexCache.openReplica(database, logger: Logger(label: "searchlight.sync"))
                let line = RebuildProgressLine()
                await replica.onRebuildProgress { written in line.update(written) }
                defer { line.finish() }
                let sync: ReplicaSync
                do {
                    sync = try await replica.sync()
                } catch {
                    throw RuntimeError("cannot sync the index replica: \(error)")
                }
                let path = replica.path ?? indexCache.resolvedDirectory
                if json {
                    printText(Self.json(sync, path: path))
                } else {
                    let how = sync.rebuilt.map { "rebuilt (\($0.rawValue))" } ?? "synced"
                    printText(
                        "\(how): generation \(sync.from.map(String.init) ?? "none") → \(sync.generation), "
                            + "\(sync.written) written, \(sync.removed) removed, "
                            + String(format: "%.2f s", sync.seconds) + " (\(path))")
                }
            }
        }

        static func json(_ sync: ReplicaSync, path: String) -> String {
            var object: [String: Any] = [
                "replica": true, "path": path, "generation": sync.generation, "written": sync.written,
                "removed": sync.removed, "seconds": (sync.seconds * 1000).rounded() / 1000,
                "rebuilt": sync.rebuilt?.rawValue ?? NSNull(),
            ]
            object["from"] = sync.from ?? NSNull() as Any
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// "building the index replica: N items" on standard error, redrawn in place at most ten times a second, only
/// on a terminal.
final class RebuildProgressLine: Sendable {
    private let state = Mutex<(drawn: ContinuousClock.Instant?, written: Int)>((nil, 0))
    private let enabled = isatty(STDERR_FILENO) == 1

    func update(_ written: Int) {
        guard enabled else { return }
        let draw = state.withLock { state -> Bool in
            let now = ContinuousClock.now
            if let drawn = state.drawn, now - drawn < .milliseconds(100) { return false }
            state = (now, written)
            return true
        }
        if draw {
            FileHandle.standardError.write(Data("\rbuilding the index replica: \(written) items\u{1B}[K".utf8))
        }
    }

    func finish() {
        guard enabled, state.withLock({ $0.drawn }) != nil else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
