import Donations
import Foundation
import GRDB

/// The stored form of an activity that reached the engagement threshold: the fields a published item
/// may show (SPEC §4 precedence within the record: `contentAttributeSet`, then the activity itself),
/// and of `userInfo` only the required keys (the parser already dropped the rest).
struct ActivityRow: Sendable {
    var bundle: String
    var activityType: String
    var webpageURL: String?
    var urlKey: String?
    var persistentIdentifier: String?
    var relatedID: String?
    var weakRelatedID: String?
    var domainIdentifier: String?
    var title: String?
    var description: String?
    var keywords: String?
    var thumbnailURL: String?
    var rating: Double?
    var ratingCount: Int?
    var userInfo: String?
    var expiresAt: Double?
    /// Distinct donors, counted in the store when the row is written.
    var donors = 0

    init(_ activity: UserActivityRecord, identity: ActivityIdentity) {
        let attributes = activity.contentAttributeSet
        bundle = activity.bundleIdentifier
        activityType = activity.activityType
        webpageURL = activity.webpageURL
        urlKey = identity.urlKey
        persistentIdentifier = activity.persistentIdentifier
        relatedID = attributes?.relatedUniqueIdentifier
        weakRelatedID = attributes?.weakRelatedUniqueIdentifier
        domainIdentifier = attributes?.domainIdentifier
        title = Self.nonEmpty(attributes?.title) ?? Self.nonEmpty(activity.title)
        description = Self.nonEmpty(attributes?.contentDescription)
        let words = (attributes?.keywords).flatMap { $0.isEmpty ? nil : $0 } ?? activity.keywords ?? []
        // Newline-separated: a keyword may hold spaces, never a newline (they are single-line strings).
        keywords =
            words.isEmpty
            ? nil
            : words.map { $0.contains("\n") ? $0.replacingOccurrences(of: "\n", with: " ") : $0 }.joined(
                separator: "\n")
        thumbnailURL = attributes?.thumbnailURL
        rating = attributes?.rating
        ratingCount = attributes?.ratingCount
        userInfo = (activity.requiredUserInfoKeys ?? []).isEmpty ? nil : ActivityIdentity.userInfoText(activity)
        expiresAt = activity.expirationDate.flatMap(DonationDates.parse)?.timeIntervalSince1970
    }

    /// Inserts or updates the row; returns whether anything changed (equal rows are left alone, so a
    /// re-import changes nothing, not even `last_seen` or `version`).
    func upsert(identityHash: Data, now: Double, in db: Database) throws -> Bool {
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
            identityHash, bundle, activityType, webpageURL, urlKey, persistentIdentifier, relatedID, weakRelatedID,
            domainIdentifier, title, description, keywords, thumbnailURL, rating, ratingCount, userInfo, expiresAt,
            donors, now, now,
        ])
        return db.changesCount > 0
    }

    /// Hands the activity's web page to the crawler's pending frontier (`pending_url`) when the crawler has
    /// not fetched its canonical URL, so that `import`, `crawl`, `publish` publishes it in one round (SPEC §4).
    /// The URL queued is the canonical key itself: the crawler fetches the page without the tracking
    /// parameters or the fragment the app may have donated.
    func queueWebpageForCrawl(now: Double, in db: Database) throws {
        guard let urlKey else { return }
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO pending_url (url_key, url, added_at)
                SELECT ?1, ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM crawl_url WHERE url_key = ?1 AND state != 'queued')
                """
        ).execute(arguments: [urlKey, now])
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
