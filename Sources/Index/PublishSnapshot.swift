import Bridge
import Foundation
import GRDB
import Store
import URLCanonical

/// What a publish reads, from one consistent snapshot of the store.
struct PublishSnapshot {
    struct StoredCluster {
        var id: Int64
        var fingerprint: UInt64
        var validUntil: Double?
    }

    var settings: IndexSettings
    var input = BridgeInput()
    var storedClusters: [String: StoredCluster] = [:]
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
            storedClusters[row["key"]] = StoredCluster(
                id: row["id"], fingerprint: Self.number(data), validUntil: row["valid_until"])
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
            let url: String = row["url"]
            // The frontier already holds the page's canonical key (the importer's own key for activity
            // pages): read it rather than parse every URL again.
            let key = (row["url_key"] as String?) ?? canonicalKey(url) ?? url
            let finalURL: String = row["final_url"]
            let canonical = (row["canonical_url"] as String?).flatMap { canonicalKey($0) }
            var version = StableHasher()
            version.combine(row["fetched_at"] as Double)
            version.combine(row["changed_at"] as Double)
            version.combine(canonical ?? "")
            // The crawler stores page rows only for HTML responses (and for gone pages).
            let record = PageRecord(
                url: url, key: key, canonicalKey: canonical, httpStatus: row["http_status"], isHTML: true,
                isIndexable: row["is_indexable"], isGone: row["is_gone"], hasTitle: row["has_title"],
                lastSeen: row["fetched_at"], version: version.value)
            input.pages.append(record)
            if finalURL != url, let finalKey = canonicalKey(finalURL), finalKey != key {
                input.redirects.append(RedirectRecord(fromKey: key, toKey: finalKey))
            }
        }
        let redirects = try Row.fetchCursor(db, sql: "SELECT from_url, to_url FROM redirect ORDER BY from_url")
        while let row = try redirects.next() {
            guard let from = canonicalKey(row["from_url"]), let to = canonicalKey(row["to_url"]) else { continue }
            input.redirects.append(RedirectRecord(fromKey: from, toKey: to))
        }
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
            guard let key = (row["url_key"] as String?) ?? canonicalKey(row["url"]) else { continue }
            if row["disallowed"] as Bool? == true {
                input.robotsDisallowedKeys.append(key)
            } else {
                input.unreachableKeys.append(key)
            }
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
            let type: String = row["activity_type"]
            let persistent: String? = row["persistent_identifier"]
            input.activities.append(
                ActivityRecord(
                    id: row["id"], bundleIdentifier: row["bundle"],
                    // Without a persistent identifier, the store's row id tells activities of one type apart.
                    displayID: persistent.map { "\(type)/\($0)" } ?? "\(type)#\(row["id"] as Int64)",
                    webpageURL: row["webpage_url"], urlKey: row["url_key"], relatedUniqueIdentifier: row["related_id"],
                    hasRequiredUserInfo: row["has_info"], expiresAt: row["expires_at"], donors: row["donors"],
                    lastSeen: row["last_seen"], version: UInt64(bitPattern: row["version"] as Int64)))
        }
        let items = try Row.fetchCursor(
            db,
            sql:
                "SELECT bundle, unique_identifier, expires_at, last_seen FROM app_item ORDER BY bundle, unique_identifier"
        )
        while let row = try items.next() {
            input.items.append(
                AppItemRecord(
                    bundleIdentifier: row["bundle"], uniqueIdentifier: row["unique_identifier"],
                    expiresAt: row["expires_at"], lastSeen: row["last_seen"]))
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
