import Foundation
import GRDB
import Logging
import Synchronization

/// A local SQLite copy of a PostgreSQL store's public index, which searches and item look-ups read
/// (Docs/postgres.md, "Where searches are answered"). Its file has exactly a SQLite store's schema (the same
/// migrations), so the same FTS5 tables, ranking and query compiler answer on both engines.
///
/// ``sync()`` brings it to the store's latest generation (``IndexGeneration``): it reads the head and the
/// changes after the replica's generation from one PostgreSQL snapshot and applies them in one SQLite
/// transaction, so a reader sees the old generation or the new one. When the replica is missing, from
/// another store, damaged, of another format, older than the store's kept history, or further behind than
/// applying row by row is worth, it is rebuilt into a new file that replaces it when complete
/// (``ReplicaFiles``). Syncs of one replica run one at a time; processes sharing a folder coordinate
/// through SQLite's locks and the rebuild lock.
///
/// ``store()`` is what searches read: it never waits for a sync.
package actor IndexReplica {
    /// The store copied.
    package nonisolated let database: PostgresStore
    /// What binds the replica to the store (``PostgresStore/storeIdentity()``).
    package nonisolated let identity: String
    nonisolated let files: ReplicaFiles
    nonisolated let logger: Logger
    /// The replica file open now (none before the first sync that finds or builds one).
    nonisolated let opened = Mutex<Opened?>(nil)
    /// Told how many items a rebuild has written so far, after each batch (a command's progress line).
    var progress: (@Sendable (Int) -> Void)?
    /// The last sync asked for, which a new one waits for.
    private var running: Task<ReplicaSync, any Error>?

    /// An open replica file and the lock that keeps other processes from deleting it.
    struct Opened: Sendable {
        let store: SQLiteStore
        let number: Int
        let use: FileLock?
        var generation: Int64
    }

    /// The replica of `database` in the folder `directory` (created when missing). Nothing is read or built
    /// until ``sync()``; an existing replica file is opened then, whatever its generation.
    package static func open(database: PostgresStore, directory: String, logger: Logger) async throws(StoreError)
        -> IndexReplica
    {
        let identity = try await database.storeIdentity()
        let name = String(identity.split(separator: "/", maxSplits: 1).last ?? "")
        let files = ReplicaFiles(directory: directory, identity: identity, databaseName: name)
        try files.createDirectory()
        return IndexReplica(database: database, identity: identity, files: files, logger: logger)
    }

    private init(database: PostgresStore, identity: String, files: ReplicaFiles, logger: Logger) {
        self.database = database
        self.identity = identity
        self.files = files
        self.logger = logger
    }

    /// The replica's store, as of its last sync.
    /// - Throws: ``StoreError`` before any sync found or built one.
    package nonisolated func store() throws(StoreError) -> SQLiteStore {
        guard let store = opened.withLock({ $0?.store }) else {
            throw StoreError(path: files.directory, message: "the index replica has not been built yet")
        }
        return store
    }

    /// The generation the replica holds (`nil` before any sync found or built one).
    package nonisolated var generation: Int64? {
        opened.withLock { $0?.generation }
    }

    /// The path of the replica file open now.
    package nonisolated var path: String? {
        opened.withLock { $0?.store.path }
    }

    /// Brings the replica to the store's latest generation (see the type's notes); returns what it did.
    /// A sync asked for while another runs starts after it.
    /// - Throws: ``StoreError`` when the store cannot be read or the replica cannot be written; the replica
    ///   is then left at the generation it had.
    package func sync() async throws(StoreError) -> ReplicaSync {
        // Each sync's task waits for the one before: the chain is set up with no suspension between reading
        // and replacing `running`, so syncs run one at a time, in the order they were asked for.
        let previous = running
        let task = Task {
            _ = try? await previous?.value
            return try await self.performSync()
        }
        running = task
        do {
            return try await task.value
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: files.directory, message: "\(error)")
        }
    }

    /// Calls `handler` with the number of items written so far after each batch of a rebuild.
    package func onRebuildProgress(_ handler: @escaping @Sendable (Int) -> Void) {
        progress = handler
    }

    /// Opens the newest replica file of this store as it is, without reading the store; returns whether there
    /// was one that could be read (`search --no-sync`).
    package func openWithoutSync() -> Bool {
        try? adoptNewestFile()
        return generation != nil
    }

    /// One sync: adopt a newer complete file another process built, then apply the changes or rebuild.
    private func performSync() async throws -> ReplicaSync {
        let started = ContinuousClock.now
        // Files this process and others have left behind are deleted here, a sync after the one that
        // replaced them: a search that began on the old file just before the swap has long finished, and never
        // finds the file gone when its pool opens another connection.
        files.removeStale(current: opened.withLock { $0?.number })
        try adoptNewestFile()
        for _ in 0..<3 {
            guard let outcome = try await applyChangesToOpenedFile() else { break }
            switch outcome {
            case .applied(var sync):
                sync.seconds = Self.seconds(since: started)
                opened.withLock { $0?.generation = sync.generation }
                return sync
            case .rebuild(let reason):
                logger.info("rebuilding the index replica", metadata: ["reason": "\(reason)"])
                var sync = try await rebuild(reason: reason)
                sync.seconds = Self.seconds(since: started)
                return sync
            case .overtaken:
                // Another process sharing the file applied a sync first: read where it is now.
                if let store = opened.withLock({ $0?.store }) {
                    let generation = try await Self.replicaGeneration(of: store)
                    opened.withLock { $0?.generation = generation ?? -1 }
                }
            }
        }
        var sync = try await rebuild(reason: opened.withLock({ $0 }) == nil ? .missing : .overtaken)
        sync.seconds = Self.seconds(since: started)
        return sync
    }

    /// Applies the changes to the file open now (`nil` when none is). The file is held only for the call, so a
    /// rebuild that follows can delete it.
    private func applyChangesToOpenedFile() async throws -> ApplyOutcome? {
        guard let current = opened.withLock({ $0 }) else { return nil }
        return try await applyChanges(to: current)
    }

    /// Opens the newest complete replica file when it is not the one open (another process rebuilt it), if it
    /// belongs to this store and can be read; a file that cannot is left for the rebuild to replace.
    private func adoptNewestFile() throws {
        guard let newest = files.completeNumbers().first else { return }
        if opened.withLock({ $0?.number }) == newest { return }
        guard let candidate = try? openFile(number: newest) else { return }
        opened.withLock { $0 = candidate }
    }

    /// Opens the complete replica file `number` for reading and syncing: it must be this store's, of this
    /// format, with a readable generation. `lock` is a shared lock this process already holds on it (the one
    /// its own rebuild kept); without it one is taken.
    func openFile(number: Int, holding lock: FileLock? = nil) throws -> Opened {
        let path = files.path(number)
        // The shared lock only keeps other processes from deleting the file while this one reads it: where it
        // cannot be taken for another reason than a deletion under way (a file system without `flock`), the
        // file is read without it.
        var use = lock
        switch lock.map(Result<FileLock, FileLock.Failure>.success) ?? FileLock.shared(path: path) {
        case .success(let lock):
            use = lock
        case .failure(let failure) where failure.code == ENOENT || failure.code == EWOULDBLOCK:
            throw StoreError(path: path, message: "the replica file is being replaced (\(failure.description))")
        case .failure(let failure):
            logger.warning(
                "reading the index replica without its shared lock",
                metadata: ["path": "\(path)", "reason": "\(failure.description)"])
        }
        let store = try SQLiteStore(path: path, memoryMapBytes: Self.memoryMapBytes, enforcesForeignKeys: false)
        let marks = try store.pool.read { db in try ReplicaMarks.read(db) }
        guard marks.identity == identity else {
            logger.warning(
                "refusing an index replica of another store",
                metadata: ["path": "\(path)", "store": "\(marks.identity ?? "none")"])
            throw StoreError(path: path, message: "the replica file belongs to another store")
        }
        guard marks.format == ReplicaMarks.format, let generation = marks.generation else {
            throw StoreError(path: path, message: "the replica file is of another format")
        }
        return Opened(store: store, number: number, use: use, generation: generation)
    }

    static func replicaGeneration(of store: SQLiteStore) async throws -> Int64? {
        try await store.read { db in try ReplicaMarks.read(db).generation }
    }

    /// The memory map of the replica's reads: as the SQLite store's (``SQLiteStore/memoryMapEnvironmentVariable``).
    static var memoryMapBytes: Int {
        ProcessInfo.processInfo.environment[SQLiteStore.memoryMapEnvironmentVariable].flatMap { Int($0) } ?? 0
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
