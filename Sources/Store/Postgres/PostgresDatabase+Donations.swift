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
            let outcome = try await donate(
                content, identity: identity, donor: donor, threshold: threshold, now: now, connection, logger)
            if outcome.isNew { counts.newDonations += 1 }
            if outcome.donors < threshold {
                counts.belowThreshold += 1
            } else if outcome.isStored {
                counts.storedActivities += 1
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

    /// Counts one donor's donation of an activity, and stores the activity's content once it has at least
    /// `threshold` donors (inserted, or updated when it differs: an equal row is left alone, `last_seen` and
    /// `version` included), queueing its web page unless the crawler already fetched it — what ``Store``
    /// does in three or four statements, in one (a record costs one round trip).
    ///
    /// The statement's parts see the database as it was before it, so the donors counted are those stored
    /// plus this donation when it is new. Every value is cast: in `INSERT … SELECT` an untyped NULL would be
    /// read as text.
    private static func donate(
        _ activity: DonatedActivity, identity: Data, donor: Data, threshold: Int, now: Double,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> (isNew: Bool, donors: Int, isStored: Bool) {
        let rows = try await connection.rows(
            """
            WITH new_donation AS (
                INSERT INTO donation (identity, donor, bundle) VALUES (\(identity), \(donor), \(activity.bundle))
                ON CONFLICT DO NOTHING RETURNING 1
            ), counted AS (
                SELECT (SELECT count(*) FROM donation WHERE identity = \(identity))
                    + (SELECT count(*) FROM new_donation) AS donors
            ), stored AS (
                INSERT INTO activity (identity, bundle, activity_type, webpage_url, url_key, persistent_identifier,
                    related_id, weak_related_id, domain_identifier, title, description, keywords, thumbnail_url,
                    rating, rating_count, user_info, expires_at, donors, first_seen, last_seen)
                SELECT \(identity)::bytea, \(activity.bundle)::text, \(activity.activityType)::text,
                    \(activity.webpageURL)::text, \(activity.urlKey)::text, \(activity.persistentIdentifier)::text,
                    \(activity.relatedID)::text, \(activity.weakRelatedID)::text, \(activity.domainIdentifier)::text,
                    \(activity.title)::text, \(activity.description)::text, \(activity.keywords)::text,
                    \(activity.thumbnailURL)::text, \(activity.rating)::double precision,
                    \(activity.ratingCount)::bigint, \(activity.userInfo)::text, \(activity.expiresAt)::double precision,
                    counted.donors, \(now)::double precision, \(now)::double precision
                FROM counted WHERE counted.donors >= \(threshold)
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
                RETURNING url_key
            ), queued AS (
                INSERT INTO pending_url (url_key, url, added_at)
                SELECT stored.url_key, stored.url_key, \(now)::double precision FROM stored
                WHERE stored.url_key IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM crawl_url WHERE crawl_url.url_key = stored.url_key AND crawl_url.state <> 'queued')
                ON CONFLICT DO NOTHING
            )
            SELECT (SELECT count(*) FROM new_donation), (SELECT donors FROM counted), (SELECT count(*) FROM stored)
            """, logger: logger)
        guard let row = rows.first else { return (false, 0, false) }
        let (new, donors, stored) = try row.decode((Int, Int, Int).self)
        return (new > 0, donors, stored > 0)
    }
}
