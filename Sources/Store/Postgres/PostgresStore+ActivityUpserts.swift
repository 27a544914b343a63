import Foundation
import Logging
internal import PostgresNIO

/// The activities of a run that reached the engagement threshold, stored with one statement: each
/// ``ActivityUpsert`` is sent as the row its first record offers (compared with the stored row) and, when
/// later records changed it, the row its last record leaves.
extension PostgresStore {
    /// Inserts or updates the activities and queues the web pages of those that changed, unless the crawler
    /// already fetched them; returns how many first records changed a row (the later changes are known).
    ///
    /// An updated row takes the last record's columns, `last_seen` and one `version` per change; an
    /// inserted row the first record's bundle and URL key; a row no record changes is left alone. Rows
    /// are inserted in the order the activities reached the threshold, so ids follow it as one by one.
    static func storeActivities(
        _ outcome: ActivityOutcome, now: Double, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Int {
        var rows = ActivityColumns()
        for upsert in outcome.upserts {
            let single = upsert.laterChanges == 0
            rows.append(upsert, content: upsert.first, donors: upsert.firstDonors, isFirst: true, isLast: single)
            if !single {
                rows.append(upsert, content: upsert.last, donors: upsert.lastDonors, isFirst: false, isLast: true)
            }
        }
        let result = try await connection.rows(
            """
            WITH offered AS (
                SELECT u.n, u.identity, u.is_first, u.is_last, u.later, u.bundle,
                    CASE WHEN u.url_key_p THEN u.url_key END AS url_key, u.activity_type,
                    CASE WHEN u.webpage_url_p THEN u.webpage_url END AS webpage_url,
                    CASE WHEN u.persistent_p THEN u.persistent END AS persistent_identifier,
                    CASE WHEN u.related_p THEN u.related END AS related_id,
                    CASE WHEN u.weak_related_p THEN u.weak_related END AS weak_related_id,
                    CASE WHEN u.domain_p THEN u.domain END AS domain_identifier,
                    CASE WHEN u.title_p THEN u.title END AS title,
                    CASE WHEN u.description_p THEN u.description END AS description,
                    CASE WHEN u.keywords_p THEN u.keywords END AS keywords,
                    CASE WHEN u.thumbnail_p THEN u.thumbnail END AS thumbnail_url,
                    CASE WHEN u.rating_p THEN u.rating END AS rating,
                    CASE WHEN u.rating_count_p THEN u.rating_count END AS rating_count,
                    CASE WHEN u.user_info_p THEN u.user_info END AS user_info,
                    CASE WHEN u.expires_p THEN u.expires END AS expires_at,
                    u.donors
                FROM unnest(
                    \(rows.identities)::bytea[], \(rows.isFirst)::bool[], \(rows.isLast)::bool[],
                    \(rows.laterChanges)::int8[], \(rows.bundles)::text[],
                    \(rows.urlKeys.values)::text[], \(rows.urlKeys.present)::bool[], \(rows.activityTypes)::text[],
                    \(rows.webpageURLs.values)::text[], \(rows.webpageURLs.present)::bool[],
                    \(rows.persistentIdentifiers.values)::text[], \(rows.persistentIdentifiers.present)::bool[],
                    \(rows.relatedIDs.values)::text[], \(rows.relatedIDs.present)::bool[],
                    \(rows.weakRelatedIDs.values)::text[], \(rows.weakRelatedIDs.present)::bool[],
                    \(rows.domainIdentifiers.values)::text[], \(rows.domainIdentifiers.present)::bool[],
                    \(rows.titles.values)::text[], \(rows.titles.present)::bool[],
                    \(rows.descriptions.values)::text[], \(rows.descriptions.present)::bool[],
                    \(rows.keywords.values)::text[], \(rows.keywords.present)::bool[],
                    \(rows.thumbnailURLs.values)::text[], \(rows.thumbnailURLs.present)::bool[],
                    \(rows.ratings.values)::float8[], \(rows.ratings.present)::bool[],
                    \(rows.ratingCounts.values)::int8[], \(rows.ratingCounts.present)::bool[],
                    \(rows.userInfos.values)::text[], \(rows.userInfos.present)::bool[],
                    \(rows.expiries.values)::float8[], \(rows.expiries.present)::bool[], \(rows.donors)::int8[]
                ) WITH ORDINALITY AS u(identity, is_first, is_last, later, bundle, url_key, url_key_p, activity_type,
                    webpage_url, webpage_url_p, persistent, persistent_p, related, related_p, weak_related,
                    weak_related_p, domain, domain_p, title, title_p, description, description_p, keywords,
                    keywords_p, thumbnail, thumbnail_p, rating, rating_p, rating_count, rating_count_p, user_info,
                    user_info_p, expires, expires_p, donors, n)
            ), judged AS (
                SELECT f.identity, f.url_key, (a.id IS NULL
                    OR a.activity_type IS DISTINCT FROM f.activity_type
                    OR a.webpage_url IS DISTINCT FROM f.webpage_url
                    OR a.persistent_identifier IS DISTINCT FROM f.persistent_identifier
                    OR a.related_id IS DISTINCT FROM f.related_id
                    OR a.weak_related_id IS DISTINCT FROM f.weak_related_id
                    OR a.domain_identifier IS DISTINCT FROM f.domain_identifier
                    OR a.title IS DISTINCT FROM f.title
                    OR a.description IS DISTINCT FROM f.description
                    OR a.keywords IS DISTINCT FROM f.keywords
                    OR a.thumbnail_url IS DISTINCT FROM f.thumbnail_url
                    OR a.rating IS DISTINCT FROM f.rating
                    OR a.rating_count IS DISTINCT FROM f.rating_count
                    OR a.user_info IS DISTINCT FROM f.user_info
                    OR a.expires_at IS DISTINCT FROM f.expires_at
                    OR a.donors IS DISTINCT FROM f.donors) AS changed
                FROM offered f LEFT JOIN activity a ON a.identity = f.identity
                WHERE f.is_first
            ), stored AS (
                INSERT INTO activity (identity, bundle, activity_type, webpage_url, url_key, persistent_identifier,
                    related_id, weak_related_id, domain_identifier, title, description, keywords, thumbnail_url,
                    rating, rating_count, user_info, expires_at, donors, first_seen, last_seen, version)
                SELECT l.identity, l.bundle, l.activity_type, l.webpage_url, l.url_key, l.persistent_identifier,
                    l.related_id, l.weak_related_id, l.domain_identifier, l.title, l.description, l.keywords,
                    l.thumbnail_url, l.rating, l.rating_count, l.user_info, l.expires_at, l.donors,
                    \(now)::float8, \(now)::float8, j.changed::int + l.later
                FROM offered l JOIN judged j ON j.identity = l.identity
                WHERE l.is_last AND (j.changed OR l.later > 0)
                ORDER BY l.n
                ON CONFLICT (identity) DO UPDATE SET
                    activity_type = excluded.activity_type, webpage_url = excluded.webpage_url,
                    persistent_identifier = excluded.persistent_identifier, related_id = excluded.related_id,
                    weak_related_id = excluded.weak_related_id, domain_identifier = excluded.domain_identifier,
                    title = excluded.title, description = excluded.description, keywords = excluded.keywords,
                    thumbnail_url = excluded.thumbnail_url, rating = excluded.rating,
                    rating_count = excluded.rating_count, user_info = excluded.user_info,
                    expires_at = excluded.expires_at, donors = excluded.donors, last_seen = excluded.last_seen,
                    version = activity.version + excluded.version
            ), queued AS (
                INSERT INTO pending_url (url_key, url, added_at)
                SELECT DISTINCT k.url_key, k.url_key, \(now)::float8
                FROM (SELECT url_key FROM judged WHERE changed
                      UNION ALL SELECT unnest(\(outcome.laterPages)::text[])) AS k(url_key)
                WHERE k.url_key IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM crawl_url WHERE crawl_url.url_key = k.url_key AND crawl_url.state <> 'queued')
                ON CONFLICT DO NOTHING
            )
            SELECT count(*) FROM judged WHERE changed
            """, logger: logger)
        return try result.first?.decode(Int.self) ?? 0
    }
}

/// The rows ``PostgresStore/storeActivities(_:now:_:_:)`` sends, one array per column.
private struct ActivityColumns {
    var identities: [ByteBuffer] = [], isFirst: [Bool] = [], isLast: [Bool] = [], laterChanges: [Int] = []
    var bundles: [String] = [], activityTypes: [String] = [], donors: [Int] = []
    var urlKeys = PostgresColumn<String>(), webpageURLs = PostgresColumn<String>()
    var persistentIdentifiers = PostgresColumn<String>(), relatedIDs = PostgresColumn<String>()
    var weakRelatedIDs = PostgresColumn<String>(), domainIdentifiers = PostgresColumn<String>()
    var titles = PostgresColumn<String>(), descriptions = PostgresColumn<String>()
    var keywords = PostgresColumn<String>(), thumbnailURLs = PostgresColumn<String>()
    var ratings = PostgresColumn<Double>(), ratingCounts = PostgresColumn<Int>()
    var userInfos = PostgresColumn<String>(), expiries = PostgresColumn<Double>()

    /// A row of `upsert` with `content`'s compared columns and `donors`; the bundle and URL key are always
    /// the first record's, which an inserted row takes.
    mutating func append(
        _ upsert: ActivityUpsert, content: DonatedActivity, donors count: Int, isFirst first: Bool,
        isLast last: Bool
    ) {
        identities.append(ByteBuffer(bytes: upsert.identity))
        isFirst.append(first)
        isLast.append(last)
        laterChanges.append(upsert.laterChanges)
        bundles.append(upsert.first.bundle)
        urlKeys.append(upsert.first.urlKey)
        activityTypes.append(content.activityType)
        webpageURLs.append(content.webpageURL)
        persistentIdentifiers.append(content.persistentIdentifier)
        relatedIDs.append(content.relatedID)
        weakRelatedIDs.append(content.weakRelatedID)
        domainIdentifiers.append(content.domainIdentifier)
        titles.append(content.title)
        descriptions.append(content.description)
        keywords.append(content.keywords)
        thumbnailURLs.append(content.thumbnailURL)
        ratings.append(content.rating)
        ratingCounts.append(content.ratingCount)
        userInfos.append(content.userInfo)
        expiries.append(content.expiresAt)
        donors.append(count)
    }
}
