/// The publish's part of the storage API (SPEC §4): read one consistent snapshot, plan from it, and write
/// the new public index in one transaction. One implementation per engine — ``SQLiteStore`` in
/// `SQLite/Publish/`, ``PostgresStore`` in `Postgres/Publish/` — and one driver over it, the index module's
/// `PublishWork`, which decides what to write; the store decides how the snapshot and the transaction are
/// held.
///
/// - SQLite reads the snapshot in a read transaction and plans outside the write lock; the transaction then
///   checks that no other publish committed meanwhile (``PublishTransaction/lastPublishID()``), and a driver
///   that finds one throws ``PublishOvertaken``: the store plans again from a new snapshot, a few times.
/// - PostgreSQL takes the publish lock first and reads, plans and writes in one `REPEATABLE READ`
///   transaction, so no publish can overtake another.
package protocol PublishStore: Sendable {
    /// How the store is named in summaries and errors (a path, or a URL without its password).
    var displayName: String { get }

    /// Runs one publish and returns what `write` returned.
    ///
    /// `engagementThreshold` and `expiryDays`, when given, are recorded first (a threshold also removes the
    /// content of activities below it). Then the store reads its rows into `snapshot`, `plan` computes from
    /// it, and `write` writes the plan through the transaction, which commits when `write` returns and rolls
    /// back when it throws. `itemCount` tells the store how many items the plan writes, before it begins the
    /// transaction (a whole new index is written differently).
    /// - Throws: ``StoreError``, what `write` threw, or ``PublishOvertaken`` when another publish kept
    ///   committing first.
    func publish<Snapshot: PublishSnapshotSink, Plan: Sendable, Result: Sendable>(
        recordingEngagementThreshold engagementThreshold: Int?, expiryDays: Double?, into snapshot: Snapshot,
        plan: @escaping @Sendable (Snapshot) async throws -> Plan, itemCount: @escaping @Sendable (Plan) -> Int,
        write: @escaping @Sendable (Plan, any PublishTransaction) async throws -> Result
    ) async throws -> Result
}

/// What takes a publish's snapshot, row by row, in this order: ``begin(settings:lastPublishID:)``, the pages,
/// redirects, unreachable URLs, association files, activities, app items and stored clusters (each kind in
/// the order `PublishRows` states), then ``take(recordCounts:)``.
package protocol PublishSnapshotSink: Sendable {
    /// Takes the store's settings and the id of the last publish, and returns the engagement threshold the
    /// counts of records below it are read for.
    mutating func begin(settings: DonationSettings, lastPublishID: Int64) -> Int
    mutating func add(page row: PublishPageRow)
    mutating func add(redirectFrom from: String, to: String)
    mutating func add(unreachable row: PublishUnreachableRow)
    mutating func add(association row: PublishAssociationRow)
    mutating func add(activity row: PublishActivityRow)
    mutating func add(appItem row: PublishAppItemRow)
    mutating func add(storedCluster row: StoredClusterRow)
    /// Takes the counts of records never stored, by reason, and of activities below the threshold.
    mutating func take(recordCounts counts: (withheld: [String: Int], belowThreshold: Int))
}

/// The publisher's write transaction, on either engine: valid only inside the `write` closure of
/// ``PublishStore/publish(recordingEngagementThreshold:expiryDays:into:plan:itemCount:write:)``, and used
/// one call at a time except ``content(for:)``, which may run beside a ``write(_:publishedAt:)``.
///
/// Use: ``lastPublishID()``, ``begin(removing:rewriting:changedClusters:publishing:)``, then ``content(for:)``
/// and ``write(_:publishedAt:)`` for every chunk of changed clusters, then
/// ``finish(queueing:at:)``, ``indexCounts()`` and ``recordRun(at:engagementThreshold:changedClusters:summary:)``.
package protocol PublishTransaction: Sendable {
    /// Whether the items carry their gram index rows (``GramText``): SQLite writes its full-text tables with
    /// the items; a PostgreSQL store's replicas compute their own.
    var writesFullText: Bool { get }

    /// The id of the last publish (0 before the first).
    func lastPublishID() async throws -> Int64

    /// Deletes the clusters `removed` with their items and the items of the clusters `rewritten` (before
    /// any insertion, so an item that moved between clusters never meets itself), readies the transaction
    /// for `itemCount` new items of `changedClusters` changed clusters, and returns where their ids start.
    func begin(removing removed: [Int64], rewriting rewritten: [Int64], changedClusters: Int, publishing itemCount: Int)
        async throws -> PublishStart

    /// What the items of a chunk of changed clusters are built from, as this transaction sees it.
    func content(for needs: PublishChunkNeeds) async throws -> PublishChunkContent

    /// Writes `clusters` (inserted, or rewritten when they have a stored id) and their items.
    func write(_ clusters: [ClusterWrite], publishedAt: Double) async throws

    /// Completes the index's tables and queues the pages `pending` for the crawler; returns how many were
    /// new to the frontier.
    func finish(queueing pending: [(key: String, url: String)], at time: Double) async throws -> Int

    /// The published items and the withheld clusters by reason, as the transaction left them.
    func indexCounts() async throws -> (published: Int, withheldClusters: [String: Int])

    /// Records the run (the report's summary, as JSON); the last call of a publish.
    func recordRun(at time: Double, engagementThreshold: Int, changedClusters: Int, summary: String) async throws
}

/// Where a publish's new items start: the first sequence number (``ItemRankOrder``), and whether the items are
/// best written in id order, each cluster saying where the ids of the later ones start
/// (``ClusterWrite/laterItemsFrom``): a SQLite store building a whole new word index beside itself takes its
/// rows in id order.
package struct PublishStart: Sendable {
    package var firstSequence: Int64
    package var prefersIDOrder: Bool

    package init(firstSequence: Int64, prefersIDOrder: Bool) {
        self.firstSequence = firstSequence
        self.prefersIDOrder = prefersIDOrder
    }
}

/// The rows a chunk of changed clusters reads: its published clusters' representative pages (by URL) and
/// contributing activities (by id), and the activity sets whose distinct donors count (by position).
package struct PublishChunkNeeds: Sendable {
    package var pages: [String]
    package var activities: [Int64]
    package var donorSets: [(key: Int, activities: [Int64])]

    package init(pages: [String], activities: [Int64], donorSets: [(key: Int, activities: [Int64])]) {
        self.pages = pages
        self.activities = activities
        self.donorSets = donorSets
    }
}

/// What a chunk's items are built from: the pages' stored item JSON (`nil` for a page without one), the
/// activities' content, and the distinct donors of each donor set.
package struct PublishChunkContent: Sendable {
    package var pageItems: [String: String?]
    package var activities: [Int64: ActivityContentRow]
    package var donors: [Int: Int]

    package init(pageItems: [String: String?], activities: [Int64: ActivityContentRow], donors: [Int: Int]) {
        self.pageItems = pageItems
        self.activities = activities
        self.donors = donors
    }
}

/// Another publish committed between a publish's snapshot and its write: the plan is stale.
package struct PublishOvertaken: Error, Sendable {
    package init() {}
}
