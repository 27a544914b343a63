import Bridge
import Store

extension PublishSnapshot {
    /// The snapshot of a PostgreSQL store, read in the publisher's transaction (whose `REPEATABLE READ`
    /// snapshot makes the reads consistent with each other).
    init(_ transaction: PostgresPublishTransaction) async throws {
        settings = IndexSettings(try await transaction.settings())
        lastPublishID = try await transaction.lastPublishID()
        var snapshot = self
        try await transaction.forEachPage { snapshot.add(page: $0) }
        try await transaction.forEachRedirect { snapshot.add(redirectFrom: $0, to: $1) }
        try await transaction.forEachUnreachable { snapshot.add(unreachable: $0) }
        try await transaction.forEachAssociationFile { snapshot.add(association: $0) }
        try await transaction.forEachActivity { snapshot.add(activity: $0) }
        try await transaction.forEachAppItem { snapshot.add(appItem: $0) }
        try await transaction.forEachStoredCluster { snapshot.add(storedCluster: $0) }
        snapshot.take(try await transaction.recordCounts(threshold: settings.engagementThreshold))
        self = snapshot
    }
}
