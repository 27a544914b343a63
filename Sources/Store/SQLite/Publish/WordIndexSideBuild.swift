import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The word index (`public_fts`) of a publish that writes a whole new public index, built in a file of its own
/// beside the store, by a thread of its own, while the publisher writes the items: FTS5's tokenizing and term
/// hashing, the largest single cost of such a publish, then runs on the second core instead of after the items
/// on the writer's. The publisher copies the finished index's tables into the store's `public_fts` in its
/// transaction (``SQLitePublishWriter/finishIndexes()``).
///
/// The table in the file is created from the store's own definition of `public_fts` (columns, tokenizer,
/// prefixes) and its settings, so its shadow tables hold exactly what the store's would: an external-content
/// FTS5 table's index is written from the rows given to it, never from its content table.
///
/// The file is named `<store>.words-<pid>-<random>` and held under an exclusive `flock` from its creation to
/// ``remove()``; a file left by a process that died (its lock free) is removed by the next one
/// (``removeAbandoned(besides:)``).
final class WordIndexSideBuild {
    /// The file's path.
    let path: String
    /// The schema name the publisher's connection attaches the file as.
    static let schemaName = "word_build"
    /// Bytes of pending terms FTS5 holds before it writes a segment: four times the store's own setting, so a
    /// whole new index writes fewer segments and merges them less, for memory only such a build fills.
    static let hashSize = 256 << 20
    /// Rows handed to the building thread at a time.
    static let batchSize = 1000

    private let lock: FileLock
    private var pending: [Row] = []
    private var floor = Int64.min
    private var rows: BatchChannel<Batch>?
    private var done: BatchChannel<Int>?

    /// Rows handed over together, and the floor below which no row is still to come.
    struct Batch: Sendable {
        var rows: [Row]
        var floor: Int64
    }

    /// A row of the word index: the item's id and its three indexed texts.
    struct Row: Sendable {
        var id: Int64
        var title: String
        var description: String?
        var keywords: String?
    }

    /// Creates the file beside `storePath` with an empty `public_fts` defined by `tableSQL` (the store's
    /// `CREATE VIRTUAL TABLE` statement) and the store's FTS5 settings `settings` (`public_fts_config`).
    init(besides storePath: String, tableSQL: String, settings: [(key: String, value: DatabaseValue)]) throws {
        Self.removeAbandoned(besides: storePath)
        var claimed: (String, FileLock)?
        for _ in 0..<4 where claimed == nil {
            let candidate = "\(storePath)\(Self.marker)\(getpid())-\(UInt32.random(in: .min ... .max))"
            guard let lock = FileLock(path: candidate, exclusive: true, wait: false) else { continue }
            // Another process's clean-up may have removed the file between its creation and the lock.
            if lock.isHolding(path: candidate) { claimed = (candidate, lock) }
        }
        guard let (path, lock) = claimed else {
            throw StoreError(path: storePath, message: "cannot create a file beside the store for the word index")
        }
        self.path = path
        self.lock = lock
        do {
            let queue = try DatabaseQueue(path: path, configuration: Self.configuration)
            try queue.inDatabase { db in
                try db.execute(sql: tableSQL)
                for setting in settings where setting.key != "hashsize" {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO public_fts_config (k, v) VALUES (?, ?)",
                        arguments: [setting.key, setting.value])
                }
                try db.execute(
                    sql: "INSERT INTO public_fts (public_fts, rank) VALUES ('hashsize', \(Self.hashSize))")
            }
        } catch {
            remove()
            throw StoreError(path: path, underlying: error)
        }
    }

    /// No journal and no waits for the disk: nothing reads the file before it is complete, and a crash
    /// leaves only a file to remove.
    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        return configuration
    }

    /// Starts the building thread; rows given to ``add(id:title:description:keywords:floor:)`` go to it from now on.
    func start() {
        let rows = BatchChannel<Batch>(capacity: 8)
        let path = path
        self.rows = rows
        done = BatchChannel<Int>.produced(by: "searchlight-publish-words", capacity: 1) { _ in
            // A failed build stops taking rows, so the publisher never waits on a full channel.
            defer { rows.cancel() }
            let queue = try DatabaseQueue(path: path, configuration: Self.configuration)
            try queue.inTransaction { db in
                // One row per statement: an `INSERT … VALUES` of one row opens no statement savepoint, at which
                // FTS5 would write out the terms it holds.
                let insert = try db.makeStatement(
                    sql: "INSERT INTO public_fts (rowid, title, description, keywords) VALUES (?, ?, ?, ?)")
                var order = WordIndexRowOrder()
                func index(_ rows: [Row]) throws {
                    for row in rows {
                        try insert.execute(arguments: [row.id, row.title, row.description, row.keywords])
                    }
                }
                while let batch = try rows.receive() { try index(order.take(batch.rows, floor: batch.floor)) }
                try index(order.rest())
                return .commit
            }
        }
    }

    /// Adds an item's row. Rows may come in any order; they are indexed in increasing id order, each as soon
    /// as a `floor` given here passes it: no row added later may have a lower id than `floor` (a row that
    /// does is still indexed, at the end; see ``WordIndexRowOrder``).
    func add(id: Int64, title: String, description: String?, keywords: String?, floor: Int64) {
        pending.append(Row(id: id, title: title, description: description, keywords: keywords))
        self.floor = max(self.floor, floor)
        if pending.count >= Self.batchSize { handOver() }
    }

    private func handOver() {
        guard !pending.isEmpty else { return }
        // A refused batch means the thread failed: ``finish()`` reports why.
        _ = rows?.send(Batch(rows: pending, floor: floor))
        pending = []
    }

    /// Hands over the last rows and waits until the index is written.
    /// - Throws: the building thread's error.
    func finish() throws {
        handOver()
        rows?.finish()
        while try done?.receive() != nil {}
    }

    /// Stops the building thread (if running), without committing what it wrote, and removes the file; the
    /// lock goes with the value.
    func remove() {
        rows?.finish(throwing: Abandoned())
        _ = try? done?.receive()
        unlink(path)
    }

    /// Ends the building thread's transaction with a rollback.
    private struct Abandoned: Error {}

    /// What every such file's name has after the store's path.
    static let marker = ".words-"

    /// Removes the word-index files beside `storePath` whose process no longer holds their lock.
    static func removeAbandoned(besides storePath: String) {
        let url = URL(fileURLWithPath: storePath)
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + marker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let candidate = directory + "/" + name
            guard let lock = FileLock(path: candidate, exclusive: true, wait: false) else { continue }
            if lock.isHolding(path: candidate) { unlink(candidate) }
        }
    }
}
