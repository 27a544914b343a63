import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Rebuilding a replica: every item of one PostgreSQL snapshot written into a new file, which replaces the
/// old one only once complete (``ReplicaFiles``). A process killed during a rebuild leaves the old replica
/// as it was and a building file that the next sync deletes.
extension IndexReplica {
    /// Items read from PostgreSQL and written into the new file at a time.
    static let rebuildBatchSize = 5_000

    /// Rebuilds the replica (see the extension's note) and opens the new file.
    func rebuild(reason: ReplicaSync.RebuildReason) async throws -> ReplicaSync {
        let lock = try await FileLock.acquire(path: files.lockPath)
        defer { withExtendedLifetime(lock) {} }
        // Another process sharing the folder may have rebuilt while this one waited for the lock.
        if let newest = files.completeNumbers().first, newest != opened.withLock({ $0?.number }),
            let candidate = try? openFile(number: newest)
        {
            opened.withLock { $0 = candidate }
            if case .applied(let sync) = try await applyChanges(to: candidate) {
                opened.withLock { $0?.generation = sync.generation }
                return sync
            }
        }
        let from = generation
        let number = files.nextNumber()
        let (head, written, reading) = try await build(number: number)
        let new = try openFile(number: number, holding: reading)
        opened.withLock { $0 = new }
        logger.info(
            "index replica rebuilt",
            metadata: ["generation": "\(head.generation)", "items": "\(written)", "path": "\(new.store.path)"])
        return ReplicaSync(from: from, generation: head.generation, written: written, removed: 0, rebuilt: reason)
    }

    /// Builds the replica file `number`: written as a building file that this process holds locked (so no
    /// other process takes it for one left by a dead process), flushed, then renamed into place. Returns the
    /// lock, made shared: the file's reader's from then on.
    private func build(number: Int) async throws -> (IndexHead, Int, FileLock) {
        let building = files.buildingPath(number)
        guard let buildingLock = FileLock(path: building, exclusive: true, wait: false) else {
            throw StoreError(path: building, message: "cannot create the replica's new file")
        }
        let result = try await writeEveryItem(into: building)
        try Self.synchronizeFile(at: building)
        guard rename(building, files.path(number)) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreError(path: building, message: "cannot rename the new replica file: \(reason)")
        }
        guard buildingLock.downgrade() else {
            throw StoreError(path: files.path(number), message: "cannot share the new replica file's lock")
        }
        return (result.0, result.1, buildingLock)
    }

    /// Writes every item of one snapshot into a new file at `path`, without a journal (nothing reads the file
    /// until it is complete), then leaves it in WAL mode as a store's file is.
    private func writeEveryItem(into path: String) async throws -> (IndexHead, Int) {
        let queue = try SQLiteStore.bulkBuildQueue(path: path)
        let identity = self.identity
        let progress = self.progress
        let result = try await database.readIndexSnapshot { reader in
            let head = try await reader.head()
            var written = 0
            try await queue.write { db in try ReplicaWriter(db).begin() }
            // One batch is written while the next is read: the server streams and the file is written at once.
            var writing: Task<Void, any Error>?
            try await reader.forEachItemBatch(after: nil, batchSize: Self.rebuildBatchSize) { batch in
                let rows = batch.map(Self.withGrams)
                try await writing?.value
                writing = Task { try await queue.write { db in try ReplicaWriter(db).insert(rows, notingNew: false) } }
                written += rows.count
                progress?(written)
            }
            try await writing?.value
            return (head, written)
        }
        try await queue.write { db in
            try ReplicaWriter(db).finish(rebuildingWords: true)
            try ReplicaMarks.write(identity: identity, generation: result.0.generation, in: db)
        }
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        return result
    }

    /// Flushes the file at `path` to the disk (it was written without syncs).
    static func synchronizeFile(at path: String) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError(path: path, message: "cannot open the new replica file") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StoreError(path: path, message: "cannot sync the new replica file") }
    }
}

extension SQLiteStore {
    /// A connection for building a new file that nothing reads until it is complete: the store's schema, no
    /// journal, no waits for the disk, a large page cache, no foreign keys (a replica holds items without
    /// their clusters).
    static func bulkBuildQueue(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "PRAGMA cache_size = -262144")
            db.add(function: foldFunction)
            db.add(function: caseFoldFunction)
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try migrator.migrate(queue)
        return queue
    }
}
