import Foundation
import GRDB

/// The shared SQLite store: the crawl frontier and fetch log, the crawled pages and
/// the per-host caches (robots.txt, apple-app-site-association).
///
/// One file, opened in WAL mode through a GRDB `DatabasePool`: one writer at a time,
/// readers never blocked by it, and every change made in one transaction, so a process
/// killed at any moment leaves the last committed state (`synchronous = NORMAL` is
/// durable against process crashes in WAL mode; only a power cut can lose the last
/// transactions, never corrupt the file). A `SQLiteStore` is safe to share between tasks.
package final class SQLiteStore: Sendable {
    /// The path of the SQLite file.
    package let path: String
    /// The connection pool; the index modules of this package run their own SQL through it.
    let pool: DatabasePool

    /// Opens (creating if needed) the store at `path` and brings its schema up to date.
    /// - Parameter memoryMapBytes: How much of the file SQLite may read through a memory map instead of
    ///   copying each page (`pread`); 0, the default, reads without one. A map spares those copies, which
    ///   measured nothing against SQLite's page cache in searches and publishes (`Docs/benchmarks.md`,
    ///   "Index"), while a store file cut short by another program under it kills the process
    ///   with SIGBUS, and the pages it touches count in the process's resident memory.
    /// - Throws: ``StoreError`` when the file cannot be opened, is not a SQLite
    ///   database, or its schema cannot be migrated.
    package convenience init(path: String, memoryMapBytes: Int = 0) throws(StoreError) {
        try self.init(path: path, memoryMapBytes: memoryMapBytes, enforcesForeignKeys: true)
    }

    /// A store whose connections do not enforce foreign keys: a replica of a PostgreSQL store's public index
    /// (``IndexReplica``) holds items without the clusters they reference.
    init(path: String, memoryMapBytes: Int, enforcesForeignKeys: Bool) throws(StoreError) {
        let memoryMapBytes = max(0, memoryMapBytes)
        self.path = path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = enforcesForeignKeys
        // Other processes (an import while a crawl runs) hold the write lock for one
        // batch at most; wait for them instead of failing with SQLITE_BUSY.
        // A full publish of a million items holds the write lock for tens of seconds (one transaction,
        // SPEC §4); writers wait that long rather than fail. Readers are never blocked (WAL).
        configuration.busyMode = .callback(Self.waitForLock)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Imports and publishes touch B-tree pages all over the file (keys are hashes): a 64 MiB page
            // cache per connection (used only as needed) and checkpoints every 32 MiB of WAL instead of
            // every 4 MiB cut the re-reading and re-writing of the same pages.
            try db.execute(sql: "PRAGMA cache_size = \(Self.cacheSizePragma)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.checkpointPages)")
            // A bulk write lets the WAL grow to a GiB or more; once checkpointed, the file is cut back to
            // 64 MiB rather than kept at its largest while another process holds the store open.
            try db.execute(sql: "PRAGMA journal_size_limit = \(64 << 20)")
            // Reads copy each page (pread) unless the caller asks for a map: see `memoryMapBytes`. SQLite caps
            // the map at its own maximum.
            try db.execute(sql: "PRAGMA mmap_size = \(memoryMapBytes)")
            db.add(function: Self.foldFunction)
            db.add(function: Self.caseFoldFunction)
        }
        do {
            pool = try Self.openPool(path: path, configuration: configuration)
        } catch {
            throw StoreError(path: path, underlying: error)
        }
    }

    /// Waits for another process's write lock, for about 180 s in all, then gives up (SQLITE_BUSY).
    ///
    /// SQLite's own busy timeout sleeps 1, 2, 5, 10… ms between tries; a crawl worker's transactions
    /// last about a millisecond, so several workers on one store spent most of their time asleep. This
    /// one tries again after 0.1 ms at first, then 1 ms, then 5 ms.
    private static let waitForLock: Database.BusyCallback = { tries in
        switch tries {
        case ..<20: usleep(100)
        case ..<100: usleep(1000)
        case ..<36_100: usleep(5000)
        default: return false
        }
        return true
    }

    /// The name of the SQL function every connection of the store has that folds case and
    /// diacritics of text (`searchlight_fold('Crème') = 'creme'`); other values pass through.
    /// The query language's `d` modifier compiles to it.
    package static let foldFunctionName = "searchlight_fold"

    /// Deterministic, so SQLite may call it once per distinct argument in a statement.
    static let foldFunction = DatabaseFunction(foldFunctionName, argumentCount: 1, pure: true) { values in
        guard case .string(let text) = values[0].storage else { return values[0] }
        return fold(text)
    }

    /// `text` with case and diacritics folded, as ``foldFunctionName`` folds it in SQL.
    package static func fold(_ text: String) -> String {
        asciiLowercased(text) ?? text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The first characters of `text` folded as ``foldFunctionName`` folds it (case and diacritics), at
    /// most `titleFoldPrefixLength`: stored per public item (`title_fold`) and indexed
    /// (`public_item_title_start`), for title-prefix queries.
    package static func foldedPrefix(_ text: String) -> String {
        String(fold(text).unicodeScalars.prefix(titleFoldPrefixLength))
    }

    /// How many leading bytes of `title` are ASCII, at most ``titleASCIIPrefixCap``: what v5-title-ascii
    /// filled `title_ascii` with (the column is no longer written or read since v8-search-indexes).
    package static func asciiPrefixLength(_ title: String) -> Int {
        min(titleASCIIPrefixCap, title.utf8.prefix { $0 < 0x80 }.count)
    }

    /// How many characters of the folded title `title_fold` keeps.
    package static let titleFoldPrefixLength = 16

    /// `text` in lower case when it is all ASCII (what both folds give there), else `nil`. Foundation's
    /// folding costs microseconds per call, and a query condition may fold every title of the index.
    static func asciiLowercased(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name of the SQL function every connection of the store has that folds case only, for all
    /// of Unicode (`searchlight_casefold('CRÈME') = 'crème'`, `'Straße'` → `'strasse'`; SQLite's `lower` folds ASCII only);
    /// other values pass through. The query language's `c` modifier compiles to it.
    package static let caseFoldFunctionName = "searchlight_casefold"

    static let caseFoldFunction = DatabaseFunction(caseFoldFunctionName, argumentCount: 1, pure: true) {
        values in
        guard case .string(let text) = values[0].storage else { return values[0] }
        return asciiLowercased(text) ?? text.folding(options: [.caseInsensitive], locale: nil)
    }

    /// Runs `body`, a bulk write (an import or a publish), with the writer connection set for it: a page
    /// cache of `cacheMegabytes`, and a checkpoint only once the WAL holds `checkpointMegabytes`.
    ///
    /// An import's keys are hashes, so each of its transactions dirties pages all over its indexes, and
    /// many of the same pages again in the next one. Checkpointing every 32 MiB would copy each such page back
    /// into the database after nearly every transaction; with 1 GiB between checkpoints a page is copied back
    /// once per GiB.
    /// Afterwards the usual settings return and a passive checkpoint runs (it never waits for readers).
    package func withBulkWriting<T>(cacheMegabytes: Int = 256, checkpointMegabytes: Int = 1024, _ body: () throws -> T)
        throws -> T
    {
        try beginBulkWriting(cacheMegabytes: cacheMegabytes, checkpointMegabytes: checkpointMegabytes)
        defer { endBulkWriting() }
        return try body()
    }

    /// Sets the writer connection for a bulk write (see ``withBulkWriting(cacheMegabytes:checkpointMegabytes:_:)``);
    /// ``endBulkWriting()`` sets it back.
    func beginBulkWriting(cacheMegabytes: Int = 256, checkpointMegabytes: Int = 1024) throws {
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = -\(cacheMegabytes * 1024)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointMegabytes * 256)")  // 4 KiB pages
        }
    }

    /// Sets the writer connection back to the usual settings and runs a passive checkpoint.
    func endBulkWriting() {
        try? pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = \(Self.cacheSizePragma)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.checkpointPages)")
            try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
        }
    }

    /// The usual page cache, 64 MiB (negative: in KiB), and WAL pages between checkpoints (32 MiB).
    static let cacheSizePragma = -65536
    static let checkpointPages = 8192

    /// The environment variable through which an operator lets the command line read SQLite stores through a
    /// memory map of at most that many bytes (see `init(path:memoryMapBytes:)`).
    package static let memoryMapEnvironmentVariable = "SEARCHLIGHT_SQLITE_MMAP"

    /// Runs `PRAGMA integrity_check` and returns its lines; `["ok"]` for a sound file.
    package func integrityCheck() throws(StoreError) -> [String] {
        do {
            return try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        } catch {
            throw StoreError(path: path, underlying: error)
        }
    }

    /// Runs `body` in one write transaction, mapping database errors to ``StoreError``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StoreError(path: path, underlying: error)
        }
    }

    /// Runs `body` on a read-only snapshot, mapping database errors to ``StoreError``.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError(path: path, underlying: error)
        }
    }
}
