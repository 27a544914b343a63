import Foundation
import Logging
internal import PostgresNIO

/// Importing donations into a PostgreSQL store: the same rows and rules as ``Store`` (see
/// ``DonationStore``), one transaction per batch.
///
/// Every transaction that writes donations first takes one transaction-scoped advisory lock
/// (``donationLockKey``), so imports and deletions run one at a time, as SQLite's single writer runs them:
/// two imports giving the same activity its second and third donor at once would otherwise each count
/// two donors and neither store the content.
extension PostgresDatabase: DonationStore {
    public func beginImport(engagementThreshold: Int?) async throws(StoreError) -> DonationSettings {
        let logger = logger
        return try await transaction { connection in
            try await Self.lockDonations(connection, logger: logger)
            if let engagementThreshold {
                try await connection.rows(
                    """
                    INSERT INTO setting (name, value) VALUES ('engagement_threshold', \(String(engagementThreshold)))
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """, logger: logger)
                try await connection.rows("DELETE FROM activity WHERE donors < \(engagementThreshold)", logger: logger)
            }
            var settings = DonationSettings(salt: [], engagementThreshold: nil, expiryDays: nil)
            for row in try await connection.rows("SELECT name, value FROM setting", logger: logger) {
                let (name, value) = try row.decode((String, String).self)
                switch name {
                case "engagement_threshold": settings.engagementThreshold = Int(value)
                case "expiry_days": settings.expiryDays = Double(value)
                case "salt": settings.salt = Store.bytes(hex: value)
                default: break
                }
            }
            return settings
        }
    }

    public func applyDonations(_ records: [DonationWrite], threshold: Int, now: Double) async throws(StoreError)
        -> DonationCounts
    {
        let logger = logger
        return try await transaction { connection in
            try await Self.lockDonations(connection, logger: logger)
            var counts = DonationCounts()
            for record in records {
                try await Self.apply(
                    record, threshold: threshold, now: now, to: &counts, connection: connection, logger: logger)
            }
            return counts
        }
    }

    public func withBulkImport<T>(_ body: () async throws -> T) async throws -> T {
        try await body()
    }

    /// The advisory lock that serializes the transactions writing donations ("SLDONATE").
    static let donationLockKey: Int64 = 0x534C_444F_4E41_5445

    static func lockDonations(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.rows("SELECT pg_advisory_xact_lock(\(donationLockKey))", logger: logger)
    }

    private static func apply(
        _ record: DonationWrite, threshold: Int, now: Double, to counts: inout DonationCounts,
        connection: PostgresConnection, logger: Logger
    ) async throws {
        switch record {
        case .withheld(let hash, let bundle, let reason):
            try await connection.rows(
                """
                INSERT INTO withheld_record (hash, bundle, reason) VALUES (\(hash), \(bundle), \(reason))
                ON CONFLICT DO NOTHING
                """, logger: logger)
            counts.withheld[reason, default: 0] += 1
        case .activity(let identity, let donor, let content):
            let inserted = try await connection.rows(
                """
                INSERT INTO donation (identity, donor, bundle) VALUES (\(identity), \(donor), \(content.bundle))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            if !inserted.isEmpty { counts.newDonations += 1 }
            let donors =
                try await connection.rows("SELECT count(*) FROM donation WHERE identity = \(identity)", logger: logger)
                .first?.decode(Int.self) ?? 0
            guard donors >= threshold else {
                counts.belowThreshold += 1
                return
            }
            if try await upsert(content, identity: identity, donors: donors, now: now, connection, logger) {
                counts.storedActivities += 1
                if let urlKey = content.urlKey {
                    // As on SQLite: the canonical key is queued unless the crawler already fetched it.
                    try await connection.rows(
                        """
                        INSERT INTO pending_url (url_key, url, added_at)
                        SELECT \(urlKey), \(urlKey), \(now)
                        WHERE NOT EXISTS (SELECT 1 FROM crawl_url WHERE url_key = \(urlKey) AND state <> 'queued')
                        ON CONFLICT DO NOTHING
                        """, logger: logger)
                }
            }
        case .searchableItem(let item):
            let changed = try await connection.rows(
                """
                INSERT INTO app_item (bundle, unique_identifier, domain_identifier, expires_at, last_seen)
                VALUES (\(item.bundle), \(item.uniqueIdentifier), \(item.domainIdentifier), \(item.expiresAt), \(now))
                ON CONFLICT (bundle, unique_identifier) DO UPDATE SET
                    domain_identifier = excluded.domain_identifier, expires_at = excluded.expires_at,
                    last_seen = excluded.last_seen
                WHERE app_item.domain_identifier IS DISTINCT FROM excluded.domain_identifier
                    OR app_item.expires_at IS DISTINCT FROM excluded.expires_at
                RETURNING 1
                """, logger: logger)
            if !changed.isEmpty { counts.searchableItems += 1 }
        case .delete(let deletion):
            try await apply(deletion, to: &counts, connection: connection, logger: logger)
        }
    }

    /// Inserts or updates the activity's row; returns whether anything changed (an equal row is left alone,
    /// `last_seen` and `version` included).
    private static func upsert(
        _ activity: DonatedActivity, identity: Data, donors: Int, now: Double, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> Bool {
        let changed = try await connection.rows(
            """
            INSERT INTO activity (identity, bundle, activity_type, webpage_url, url_key, persistent_identifier,
                related_id, weak_related_id, domain_identifier, title, description, keywords, thumbnail_url,
                rating, rating_count, user_info, expires_at, donors, first_seen, last_seen)
            VALUES (\(identity), \(activity.bundle), \(activity.activityType), \(activity.webpageURL),
                \(activity.urlKey), \(activity.persistentIdentifier), \(activity.relatedID), \(activity.weakRelatedID),
                \(activity.domainIdentifier), \(activity.title), \(activity.description), \(activity.keywords),
                \(activity.thumbnailURL), \(activity.rating), \(activity.ratingCount), \(activity.userInfo),
                \(activity.expiresAt), \(donors), \(now), \(now))
            ON CONFLICT (identity) DO UPDATE SET
                activity_type = excluded.activity_type, webpage_url = excluded.webpage_url,
                persistent_identifier = excluded.persistent_identifier, related_id = excluded.related_id,
                weak_related_id = excluded.weak_related_id, domain_identifier = excluded.domain_identifier,
                title = excluded.title, description = excluded.description, keywords = excluded.keywords,
                thumbnail_url = excluded.thumbnail_url, rating = excluded.rating,
                rating_count = excluded.rating_count, user_info = excluded.user_info,
                expires_at = excluded.expires_at, donors = excluded.donors, last_seen = excluded.last_seen,
                version = activity.version + 1
            WHERE activity.activity_type IS DISTINCT FROM excluded.activity_type
                OR activity.webpage_url IS DISTINCT FROM excluded.webpage_url
                OR activity.persistent_identifier IS DISTINCT FROM excluded.persistent_identifier
                OR activity.related_id IS DISTINCT FROM excluded.related_id
                OR activity.weak_related_id IS DISTINCT FROM excluded.weak_related_id
                OR activity.domain_identifier IS DISTINCT FROM excluded.domain_identifier
                OR activity.title IS DISTINCT FROM excluded.title
                OR activity.description IS DISTINCT FROM excluded.description
                OR activity.keywords IS DISTINCT FROM excluded.keywords
                OR activity.thumbnail_url IS DISTINCT FROM excluded.thumbnail_url
                OR activity.rating IS DISTINCT FROM excluded.rating
                OR activity.rating_count IS DISTINCT FROM excluded.rating_count
                OR activity.user_info IS DISTINCT FROM excluded.user_info
                OR activity.expires_at IS DISTINCT FROM excluded.expires_at
                OR activity.donors IS DISTINCT FROM excluded.donors
            RETURNING 1
            """, logger: logger)
        return !changed.isEmpty
    }
}
