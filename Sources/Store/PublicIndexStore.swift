/// A store as `publish`, `search`, `export`, `report`, `token` and `serve` see it (SPEC §4, §7): the public
/// index with what reads and writes it, on either engine — ``SQLiteStore`` (`SQLite/SQLiteStore+PublicIndex`)
/// or ``PostgresStore`` (`Postgres/PostgresStore+PublicIndex`).
package protocol PublicIndexStore: PublishStore, ReportStore, DonationStore, TokenStore {
    /// What searches read when the store answers them itself: a SQLite store's own tables. `nil` on a
    /// PostgreSQL store, whose searches read a replica (``IndexReplica``) the caller opens and syncs.
    var ownSearchSource: SearchSource? { get }

    /// Calls `body` with the stored JSON of every public item (SPEC §6), in increasing `unique_identifier`
    /// byte order, in batches of about `batchBytes` bytes of JSON (a batch ends with the item that reaches
    /// it), and returns how many items there were. The items come from one snapshot of the index, streamed:
    /// memory holds one batch (plus the engine's read-ahead), however many items there are.
    ///
    /// `body` runs one call at a time (on SQLite on the store's reading thread); an error it throws stops
    /// the reading and is rethrown as it is.
    /// - Throws: ``StoreError`` when the store cannot be read, or what `body` threw.
    func forEachPublicItemBatch(batchBytes: Int, _ body: @escaping @Sendable ([String]) throws -> Void)
        async throws -> Int

    /// The expiry period (days) `publish` recorded in the store, `nil` when none was (the default applies).
    func recordedExpiryDays() async throws(StoreError) -> Double?

    /// Reads a little of the store itself (a health check): nothing on SQLite, whose searches read the store
    /// (``SearchSource/checkSearchable()``); the published items' table on PostgreSQL.
    func checkReadable() async throws(StoreError)

    /// Closes the store's connections: a PostgreSQL store's pool; a SQLite store closes with its last
    /// reference.
    func close() async
}

/// Items gathered into batches of about a number of bytes, for ``PublicIndexStore/forEachPublicItemBatch(batchBytes:_:)``.
struct PublicItemBatcher {
    let batchBytes: Int
    private(set) var count = 0
    private var batch: [String] = []
    private var bytes = 0

    init(batchBytes: Int) {
        self.batchBytes = max(batchBytes, 1)
    }

    /// Adds `json`; hands the batch to `body` once it holds `batchBytes` bytes.
    mutating func add(_ json: String, _ body: ([String]) throws -> Void) throws {
        batch.append(json)
        bytes += json.utf8.count
        count += 1
        if bytes >= batchBytes { try flush(body) }
    }

    /// Hands what is left to `body`.
    mutating func flush(_ body: ([String]) throws -> Void) throws {
        guard !batch.isEmpty else { return }
        try body(batch)
        batch.removeAll(keepingCapacity: true)
        bytes = 0
    }
}
