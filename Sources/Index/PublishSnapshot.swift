import Bridge
import GRDB
import Store

/// What a publish reads, from one consistent snapshot of the store: here from a SQLite store, from a
/// PostgreSQL store in `PublishSnapshot+Postgres.swift` (the same rows: `Store/PublishRows`), each row
/// taken as the bridge's record by `PublishSnapshot+Rows.swift`.
struct PublishSnapshot {
    var settings: IndexSettings
    var input = BridgeInput()
    var storedClusters: [String: StoredClusterRow] = [:]
    /// The last publish this snapshot saw: the write checks that no other publish committed since.
    var lastPublishID: Int64 = 0
    /// Never-stored records by reason, and activities still below the threshold.
    var recordCounts: [String: Int] = [:]

    /// The snapshot of a SQLite store, read in `db`'s read transaction.
    init(_ db: Database) throws {
        let reader = SQLitePublishReader(db)
        settings = IndexSettings(try reader.settings())
        lastPublishID = try reader.lastPublishID()
        var snapshot = self
        try reader.forEachPage { snapshot.add(page: $0) }
        try reader.forEachRedirect { snapshot.add(redirectFrom: $0, to: $1) }
        try reader.forEachUnreachable { snapshot.add(unreachable: $0) }
        try reader.forEachAssociationFile { snapshot.add(association: $0) }
        try reader.forEachActivity { snapshot.add(activity: $0) }
        try reader.forEachAppItem { snapshot.add(appItem: $0) }
        try reader.forEachStoredCluster { snapshot.add(storedCluster: $0) }
        let counts = try reader.recordCounts(threshold: settings.engagementThreshold)
        snapshot.take(counts)
        self = snapshot
    }

    /// Takes the counts of records never stored and of activities below the threshold.
    mutating func take(_ counts: (withheld: [String: Int], belowThreshold: Int)) {
        recordCounts = counts.withheld
        if counts.belowThreshold > 0 {
            recordCounts[WithholdReason.belowEngagementThreshold.rawValue, default: 0] += counts.belowThreshold
        }
    }
}
