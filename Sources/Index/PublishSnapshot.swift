import Bridge
import Foundation
import GRDB
import Store
import URLCanonical

/// What a publish reads, from one consistent snapshot of the store: here from a SQLite store, from a
/// PostgreSQL store in `PublishSnapshot+Postgres.swift`, each row taken by `PublishSnapshot+Rows.swift`.
struct PublishSnapshot {
    var settings: IndexSettings
    var input = BridgeInput()
    var storedClusters: [String: StoredClusterRow] = [:]
    /// The last publish this snapshot saw: the write checks that no other publish committed since.
    var lastPublishID: Int64 = 0
    /// Never-stored records by reason, and activities still below the threshold.
    var recordCounts: [String: Int] = [:]

    init(_ db: Database) throws {
        settings = try IndexSettings.read(db)
        lastPublishID = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM publish_run") ?? 0
        try readPages(db)
        try readDonations(db)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, key, fingerprint, valid_until FROM cluster")
        while let row = try rows.next() {
            let data: Data = row["fingerprint"]
            add(
                storedCluster: StoredClusterRow(
                    id: row["id"], key: row["key"], fingerprint: Self.number(data), validUntil: row["valid_until"]))
        }
        for row in try Row.fetchAll(db, sql: "SELECT reason, count(*) AS n FROM withheld_record GROUP BY reason") {
            recordCounts[row["reason"], default: 0] += row["n"] as Int
        }
        let below =
            try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM (SELECT identity FROM donation GROUP BY identity HAVING count(*) < ?)",
                arguments: [settings.engagementThreshold]) ?? 0
        if below > 0 { recordCounts[WithholdReason.belowEngagementThreshold.rawValue, default: 0] += below }
    }

    private mutating func readPages(_ db: Database) throws {
        let pages = try Row.fetchCursor(
            db,
            sql: """
                SELECT page.url, page.final_url, page.canonical_url, page.http_status, page.is_indexable,
                       page.is_gone, coalesce(length(page.title), 0) > 0 AS has_title, page.fetched_at,
                       page.changed_at, crawl_url.url_key
                FROM page LEFT JOIN crawl_url ON crawl_url.url = page.url ORDER BY page.url
                """)
        while let row = try pages.next() {
            add(
                page: PublishPageRow(
                    url: row["url"], finalURL: row["final_url"], canonicalURL: row["canonical_url"],
                    httpStatus: row["http_status"], isIndexable: row["is_indexable"], isGone: row["is_gone"],
                    hasTitle: row["has_title"], fetchedAt: row["fetched_at"], changedAt: row["changed_at"],
                    urlKey: row["url_key"]))
        }
        let redirects = try Row.fetchCursor(db, sql: "SELECT from_url, to_url FROM redirect ORDER BY from_url")
        while let row = try redirects.next() { add(redirectFrom: row["from_url"], to: row["to_url"]) }
        // The frontier's key is the same canonical key (the crawler adopts the importer's key for
        // activity URLs), so a URL the crawler gave up on is found under the activity's own key.
        let unreachable = try Row.fetchCursor(
            db,
            sql: """
                SELECT url, url_key, outcome = ? AS disallowed
                FROM crawl_url WHERE state IN ('failed', 'skipped') AND kind = 'page'
                """,
            arguments: [FrontierURL.robotsDisallowedOutcome])
        while let row = try unreachable.next() {
            add(
                unreachable: PublishUnreachableRow(
                    url: row["url"], urlKey: row["url_key"], isRobotsDisallowed: row["disallowed"] as Bool? == true))
        }
    }

    private mutating func readDonations(_ db: Database) throws {
        let activities = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, bundle, activity_type, persistent_identifier, webpage_url, url_key, related_id,
                       user_info IS NOT NULL AS has_info, expires_at, donors, last_seen, version
                FROM activity ORDER BY id
                """)
        while let row = try activities.next() {
            add(
                activity: PublishActivityRow(
                    id: row["id"], bundle: row["bundle"], activityType: row["activity_type"],
                    persistentIdentifier: row["persistent_identifier"], webpageURL: row["webpage_url"],
                    urlKey: row["url_key"], relatedID: row["related_id"], hasUserInfo: row["has_info"],
                    expiresAt: row["expires_at"], donors: row["donors"], lastSeen: row["last_seen"],
                    version: row["version"]))
        }
        let items = try Row.fetchCursor(
            db,
            sql:
                "SELECT bundle, unique_identifier, expires_at, last_seen FROM app_item ORDER BY bundle, unique_identifier"
        )
        while let row = try items.next() {
            add(
                appItem: PublishAppItemRow(
                    bundle: row["bundle"], uniqueIdentifier: row["unique_identifier"], expiresAt: row["expires_at"],
                    lastSeen: row["last_seen"]))
        }
    }

    /// A fingerprint as stored: 8 bytes, little-endian.
    static func blob(_ number: UInt64) -> Data {
        withUnsafeBytes(of: number.littleEndian) { Data($0) }
    }

    static func number(_ data: Data) -> UInt64 {
        guard data.count == 8 else { return 0 }
        return data.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
}
