/// The public index that `search` and `export` read (SPEC §4, §7), on either engine: a SQLite ``Store`` or a
/// PostgreSQL `PostgresDatabase`.
///
/// Search is planned differently per engine (the index modules compile it for each), so this is an enum
/// rather than a protocol: the reader switches on it to pick the plan, and the operations both engines
/// share are here. Each engine's statements are its own (`Store+PublicItems`, `PostgresDatabase+PublicIndex`).
package enum PublicIndexStore: Sendable {
    case sqlite(Store)
    case postgres(PostgresDatabase)

    /// Calls `body` with the stored JSON of every public item (SPEC §6), in increasing `unique_identifier`
    /// byte order, in batches of about `batchBytes` bytes of JSON (a batch ends with the item that reaches
    /// it), and returns how many items there were. The items come from one snapshot of the index, streamed:
    /// memory holds one batch (plus the engine's read-ahead), however many items there are.
    ///
    /// `body` runs one call at a time (on SQLite on the store's reading thread); an error it throws stops
    /// the reading and is rethrown as it is.
    /// - Throws: ``StoreError`` when the store cannot be read, or what `body` threw.
    package func forEachPublicItemBatch(
        batchBytes: Int, _ body: @escaping @Sendable ([String]) throws -> Void
    ) async throws -> Int {
        switch self {
        case .sqlite(let store): try await store.forEachPublicItemBatch(batchBytes: batchBytes, body)
        case .postgres(let database): try await database.forEachPublicItemBatch(batchBytes: batchBytes, body)
        }
    }

    /// Closes a PostgreSQL store's connections; a SQLite store closes with its last reference.
    package func close() async {
        if case .postgres(let database) = self { await database.close() }
    }
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
