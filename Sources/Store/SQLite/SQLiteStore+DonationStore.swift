import Foundation
import GRDB

/// Importing donations into a SQLite store: settings, donor hashes, withheld records, activities above the
/// engagement threshold, searchable items, and the activity web pages handed to the crawler.
extension SQLiteStore: DonationStore {
    package func beginImport(engagementThreshold: Int?) async throws(StoreError) -> DonationSettings {
        try await write { db in
            try Self.recordSettings(engagementThreshold: engagementThreshold, expiryDays: nil, in: db)
            if let engagementThreshold { try Self.purgeActivities(below: engagementThreshold, in: db) }
            return try Self.donationSettings(db)
        }
    }

    package func applyDonations(_ records: [DonationWrite], threshold: Int, now: Double) async throws(StoreError)
        -> DonationCounts
    {
        try await write { db in
            var counts = DonationCounts()
            for record in records { try Self.apply(record, threshold: threshold, now: now, to: &counts, in: db) }
            return counts
        }
    }

    private static func apply(
        _ record: DonationWrite, threshold: Int, now: Double, to counts: inout DonationCounts, in db: Database
    ) throws {
        switch record {
        case .withheld(let hash, let bundle, let reason):
            try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO withheld_record (hash, bundle, reason) VALUES (?, ?, ?)"
            ).execute(arguments: [hash, bundle, reason])
            counts.withheld[reason, default: 0] += 1
        case .activity(let identity, let donor, let content):
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO donation (identity, donor, bundle) VALUES (?, ?, ?)")
                .execute(arguments: [identity, donor, content.bundle])
            if db.changesCount > 0 { counts.newDonations += 1 }
            let donors =
                try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM donation WHERE identity = ?"), arguments: [identity])
                ?? 0
            guard donors >= threshold else {
                counts.belowThreshold += 1
                return
            }
            if try upsert(content, identity: identity, donors: donors, now: now, in: db) {
                counts.storedActivities += 1
                try queueWebpageForCrawl(content, now: now, in: db)
            }
        case .searchableItem(let item):
            try db.cachedStatement(
                sql: """
                    INSERT INTO app_item (bundle, unique_identifier, domain_identifier, expires_at, last_seen)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (bundle, unique_identifier) DO UPDATE SET
                        domain_identifier = excluded.domain_identifier, expires_at = excluded.expires_at,
                        last_seen = excluded.last_seen
                    WHERE domain_identifier IS NOT excluded.domain_identifier OR expires_at IS NOT excluded.expires_at
                    """
            ).execute(arguments: [item.bundle, item.uniqueIdentifier, item.domainIdentifier, item.expiresAt, now])
            if db.changesCount > 0 { counts.searchableItems += 1 }
        case .delete(let deletion):
            try apply(deletion, to: &counts, in: db)
        }
    }

    /// Inserts or updates the activity's row; returns whether anything changed (equal rows are left alone,
    /// so a re-import changes nothing, not even `last_seen` or `version`).
    private static func upsert(
        _ activity: DonatedActivity, identity: Data, donors: Int, now: Double, in db: Database
    ) throws -> Bool {
        try db.cachedStatement(
            sql: """
                INSERT INTO activity (identity, bundle, activity_type, webpage_url, url_key, persistent_identifier,
                    related_id, weak_related_id, domain_identifier, title, description, keywords, thumbnail_url,
                    rating, rating_count, user_info, expires_at, donors, first_seen, last_seen)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (identity) DO UPDATE SET
                    activity_type = excluded.activity_type, webpage_url = excluded.webpage_url,
                    persistent_identifier = excluded.persistent_identifier, related_id = excluded.related_id,
                    weak_related_id = excluded.weak_related_id, domain_identifier = excluded.domain_identifier,
                    title = excluded.title, description = excluded.description, keywords = excluded.keywords,
                    thumbnail_url = excluded.thumbnail_url, rating = excluded.rating,
                    rating_count = excluded.rating_count, user_info = excluded.user_info,
                    expires_at = excluded.expires_at, donors = excluded.donors, last_seen = excluded.last_seen,
                    version = version + 1
                WHERE activity_type IS NOT excluded.activity_type OR webpage_url IS NOT excluded.webpage_url
                    OR persistent_identifier IS NOT excluded.persistent_identifier
                    OR related_id IS NOT excluded.related_id OR weak_related_id IS NOT excluded.weak_related_id
                    OR domain_identifier IS NOT excluded.domain_identifier OR title IS NOT excluded.title
                    OR description IS NOT excluded.description OR keywords IS NOT excluded.keywords
                    OR thumbnail_url IS NOT excluded.thumbnail_url OR rating IS NOT excluded.rating
                    OR rating_count IS NOT excluded.rating_count OR user_info IS NOT excluded.user_info
                    OR expires_at IS NOT excluded.expires_at OR donors IS NOT excluded.donors
                """
        ).execute(arguments: [
            identity, activity.bundle, activity.activityType, activity.webpageURL, activity.urlKey,
            activity.persistentIdentifier, activity.relatedID, activity.weakRelatedID, activity.domainIdentifier,
            activity.title, activity.description, activity.keywords, activity.thumbnailURL, activity.rating,
            activity.ratingCount, activity.userInfo, activity.expiresAt, donors, now, now,
        ])
        return db.changesCount > 0
    }

    /// Hands the activity's web page to the crawler's pending frontier (`pending_url`) when the crawler has
    /// not fetched its canonical URL, so that `import`, `crawl`, `publish` publishes it in one round (SPEC §4).
    /// The URL queued is the canonical key itself: the crawler fetches the page without the tracking
    /// parameters or the fragment the app may have donated.
    private static func queueWebpageForCrawl(_ activity: DonatedActivity, now: Double, in db: Database) throws {
        guard let urlKey = activity.urlKey else { return }
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO pending_url (url_key, url, added_at)
                SELECT ?1, ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM crawl_url WHERE url_key = ?1 AND state != 'queued')
                """
        ).execute(arguments: [urlKey, now])
    }
}

extension SQLiteStore {
    package func withBulkImport<T>(_ body: () async throws -> T) async throws -> T {
        try beginBulkWriting()
        defer { endBulkWriting() }
        return try await body()
    }
}
