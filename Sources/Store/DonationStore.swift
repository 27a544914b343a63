/// The donations' part of the storage API: what `import` and `delete` write (SPEC §4's storage rules).
/// One implementation per engine — ``SQLiteStore`` on a SQLite file, `PostgresStore` on PostgreSQL — with the
/// same rows and rules, which `DonationStoreImportTests` and `DonationStoreDeleteTests` check on both.
///
/// The store never sees a donor or a withheld record in the clear: the importer hashes them with the
/// store's salt (``DonationSettings/salt``) before it hands them over. Every method is one transaction,
/// safe against other processes importing into, crawling or publishing the same store.
package protocol DonationStore: Sendable {
    /// How the store is named in summaries and errors (a path, or a URL without its password).
    var displayName: String { get }

    /// Records `engagementThreshold` when given, and then removes the stored content of every activity
    /// below it (below the threshold only hashes may be kept); returns the store's settings afterwards.
    func beginImport(engagementThreshold: Int?) async throws(StoreError) -> DonationSettings

    /// Applies `records` in order, in one transaction: withheld records and donor hashes are counted
    /// once each, an activity's content is stored (or updated, when it differs) only once it has at
    /// least `threshold` distinct donors, and its web page is queued for the crawler unless the crawler
    /// already fetched it.
    func applyDonations(_ records: [DonationWrite], threshold: Int, now: Double) async throws(StoreError)
        -> DonationCounts

    /// Applies `deletion` in its own transaction, with the rules of a delete record in a donation file.
    func delete(_ deletion: ItemDeletion) async throws(StoreError) -> DonationCounts

    /// Runs `body`, the batches of one import, with the store set up for a long run of writes, and sets it
    /// back afterwards (SQLite: a larger page cache and fewer checkpoints; PostgreSQL: nothing to set).
    func withBulkImport<T>(_ body: () async throws -> T) async throws -> T
}
