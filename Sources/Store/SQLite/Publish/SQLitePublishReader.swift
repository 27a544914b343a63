import Foundation
import GRDB

/// The publisher's reads of a SQLite store, in the caller's read transaction: the same rows, in the same
/// order, as ``PostgresPublishTransaction`` reads from a PostgreSQL store.
struct SQLitePublishReader {
    let db: Database

    /// Reads through `db`, a read (or write) transaction the caller holds.
    init(_ db: Database) {
        self.db = db
    }

    /// Reads the whole snapshot into `sink`, in ``PublishSnapshotSink``'s order.
    func read<Sink: PublishSnapshotSink>(into sink: inout Sink) throws {
        let threshold = sink.begin(settings: try settings(), lastPublishID: try lastPublishID())
        try forEachPage { sink.add(page: $0) }
        try forEachRedirect { sink.add(redirectFrom: $0, to: $1) }
        try forEachUnreachable { sink.add(unreachable: $0) }
        try forEachAssociationFile { sink.add(association: $0) }
        try forEachActivity { sink.add(activity: $0) }
        try forEachAppItem { sink.add(appItem: $0) }
        try forEachStoredCluster { sink.add(storedCluster: $0) }
        sink.take(recordCounts: try recordCounts(threshold: threshold))
    }

    /// The stored settings; a threshold or period never recorded is `nil`.
    func settings() throws -> DonationSettings {
        try SQLiteStore.donationSettings(db)
    }

    /// The id of the last publish (0 before the first).
    func lastPublishID() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM publish_run") ?? 0
    }

    /// Every crawled page, in URL order, with its frontier key.
    func forEachPage(_ body: (PublishPageRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT page.url, page.final_url, page.canonical_url, page.http_status, page.is_indexable,
                       page.is_gone, coalesce(length(page.title), 0) > 0 AS has_title, page.fetched_at,
                       page.changed_at, crawl_url.url_key, crawl_url.host
                FROM page LEFT JOIN crawl_url ON crawl_url.url = page.url ORDER BY page.url
                """)
        while let row = try rows.next() {
            try body(
                PublishPageRow(
                    url: row["url"], finalURL: row["final_url"], canonicalURL: row["canonical_url"],
                    httpStatus: row["http_status"], isIndexable: row["is_indexable"], isGone: row["is_gone"],
                    hasTitle: row["has_title"], fetchedAt: row["fetched_at"], changedAt: row["changed_at"],
                    urlKey: row["url_key"], host: row["host"]))
        }
    }

    /// Every recorded redirect, by source URL.
    func forEachRedirect(_ body: (_ from: String, _ to: String) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT from_url, to_url FROM redirect ORDER BY from_url")
        while let row = try rows.next() { try body(row["from_url"], row["to_url"]) }
    }

    /// Every page URL the crawler gave up on.
    func forEachUnreachable(_ body: (PublishUnreachableRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT url, url_key, \(PublishUnreachableRow.Cause.column) AS cause
                FROM crawl_url WHERE state IN ('failed', 'skipped') AND kind = 'page' ORDER BY id
                """)
        while let row = try rows.next() {
            try body(
                PublishUnreachableRow(
                    url: row["url"], urlKey: row["url_key"],
                    cause: PublishUnreachableRow.Cause(rawValue: row["cause"]) ?? .failed))
        }
    }

    /// Every origin's stored apple-app-site-association that was served (200) with a body.
    func forEachAssociationFile(_ body: (PublishAssociationRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT host, body FROM host_file
                WHERE name = 'apple-app-site-association' AND http_status = 200 AND body IS NOT NULL ORDER BY host
                """)
        while let row = try rows.next() {
            let bytes: Data = row["body"]
            try body(PublishAssociationRow(host: row["host"], body: [UInt8](bytes)))
        }
    }

    /// Every stored activity, in id order.
    func forEachActivity(_ body: (PublishActivityRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, bundle, activity_type, persistent_identifier, webpage_url, url_key, related_id,
                       user_info IS NOT NULL AS has_info, expires_at, donors, last_seen, version
                FROM activity ORDER BY id
                """)
        while let row = try rows.next() {
            try body(
                PublishActivityRow(
                    id: row["id"], bundle: row["bundle"], activityType: row["activity_type"],
                    persistentIdentifier: row["persistent_identifier"], webpageURL: row["webpage_url"],
                    urlKey: row["url_key"], relatedID: row["related_id"], hasUserInfo: row["has_info"],
                    expiresAt: row["expires_at"], donors: row["donors"], lastSeen: row["last_seen"],
                    version: row["version"]))
        }
    }

    /// Every donated searchable item, by bundle and identifier.
    func forEachAppItem(_ body: (PublishAppItemRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql:
                "SELECT bundle, unique_identifier, expires_at, last_seen FROM app_item ORDER BY bundle, unique_identifier"
        )
        while let row = try rows.next() {
            try body(
                PublishAppItemRow(
                    bundle: row["bundle"], uniqueIdentifier: row["unique_identifier"], expiresAt: row["expires_at"],
                    lastSeen: row["last_seen"]))
        }
    }

    /// The clusters of the last publish.
    func forEachStoredCluster(_ body: (StoredClusterRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT id, key, fingerprint, valid_until FROM cluster")
        while let row = try rows.next() {
            try body(
                StoredClusterRow(
                    id: row["id"], key: row["key"], fingerprint: StoredClusterRow.fingerprint(row["fingerprint"]),
                    validUntil: row["valid_until"]))
        }
    }

    /// Records never stored, by reason, and how many activities are still below `threshold` donors.
    func recordCounts(threshold: Int) throws -> (withheld: [String: Int], belowThreshold: Int) {
        var withheld: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT reason, count(*) AS n FROM withheld_record GROUP BY reason") {
            withheld[row["reason"], default: 0] += row["n"] as Int
        }
        let below =
            try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM (SELECT identity FROM donation GROUP BY identity HAVING count(*) < ?)",
                arguments: [threshold]) ?? 0
        return (withheld, below)
    }
}
