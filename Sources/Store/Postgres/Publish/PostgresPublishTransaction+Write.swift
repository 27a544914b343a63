import Foundation
internal import PostgresNIO

/// What the publisher reads while it builds items (a chunk of clusters at a time) and what it writes:
/// each a statement over arrays (``PostgresColumn``), never one per row.
extension PostgresPublishTransaction {
    /// The stored item JSON of the pages `urls` (`nil` for a page that stored none).
    package func pageItems(_ urls: [String]) async throws -> [String: String?] {
        var items: [String: String?] = [:]
        items.reserveCapacity(urls.count)
        guard !urls.isEmpty else { return items }
        let rows = try await connection.query(
            "SELECT url, item_json FROM page WHERE url = ANY(\(urls)::text[])", logger: logger)
        for try await (url, json) in rows.decode((String, String?).self) { items[url] = json }
        return items
    }

    /// The content of the activities `ids`, by id.
    package func activityContents(_ ids: [Int64]) async throws -> [Int64: ActivityContentRow] {
        var contents: [Int64: ActivityContentRow] = [:]
        contents.reserveCapacity(ids.count)
        guard !ids.isEmpty else { return contents }
        let rows = try await connection.query(
            """
            SELECT id, bundle, activity_type, persistent_identifier, related_id, domain_identifier, title,
                   description, keywords, thumbnail_url, rating, rating_count
            FROM activity WHERE id = ANY(\(ids)::int8[])
            """, logger: logger)
        for try await row in rows {
            let c = try row.decode(
                (Int64, String, String, String?, String?, String?, String?, String?, String?, String?, Double?, Int?)
                    .self)
            contents[c.0] = ActivityContentRow(
                id: c.0, bundle: c.1, activityType: c.2, persistentIdentifier: c.3, relatedID: c.4,
                domainIdentifier: c.5, title: c.6, description: c.7, keywords: c.8, thumbnailURL: c.9, rating: c.10,
                ratingCount: c.11)
        }
        return contents
    }

    /// How many distinct donors (by their hashes) each set of activities has together, by the set's key: one
    /// statement for all the sets.
    package func distinctDonors(_ sets: [(key: Int, activities: [Int64])]) async throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        guard !sets.isEmpty else { return counts }
        var keys: [Int] = [], ids: [Int64] = []
        for (key, activities) in sets {
            for id in activities {
                keys.append(key)
                ids.append(id)
            }
        }
        let rows = try await connection.query(
            """
            SELECT s.key, count(DISTINCT donation.donor)::int8
            FROM unnest(\(keys)::int8[], \(ids)::int8[]) AS s(key, id)
            JOIN activity ON activity.id = s.id JOIN donation ON donation.identity = activity.identity
            GROUP BY s.key
            """, logger: logger)
        for try await (key, count) in rows.decode((Int, Int).self) { counts[key] = count }
        for (key, _) in sets where counts[key] == nil { counts[key] = 0 }
        return counts
    }

    /// Deletes the clusters `ids` and their items.
    package func deleteClusters(_ ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await connection.rows("DELETE FROM cluster WHERE id = ANY(\(ids)::int8[])", logger: logger)
    }

    /// Deletes the items of the clusters `ids` (about to be rewritten), before any item is inserted: an
    /// item that moved between clusters must not meet itself.
    package func deleteItems(ofClusters ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await connection.rows("DELETE FROM public_item WHERE cluster_id = ANY(\(ids)::int8[])", logger: logger)
    }

    /// Reserves `count` item sequence numbers (``ItemRankOrder``) and returns the first.
    /// - Throws: ``StoreError`` when the ids are exhausted.
    package func reserveSequences(_ count: Int) async throws -> Int64 {
        let stored = try await connection.rows(
            "SELECT value FROM setting WHERE name = \(ItemRankOrder.sequenceSetting)", logger: logger
        ).first?.decode(String.self)
        let next = stored.flatMap { Int64($0) } ?? 1
        guard count >= 0, next >= 1, next <= ItemRankOrder.maxSequence - Int64(count) else {
            throw StoreError(path: "public_item", message: "public item ids exhausted (\(next) + \(count))")
        }
        try await connection.rows(
            """
            INSERT INTO setting (name, value) VALUES (\(ItemRankOrder.sequenceSetting), \(String(next + Int64(count))))
            ON CONFLICT (name) DO UPDATE SET value = excluded.value
            """, logger: logger)
        return next
    }

    /// Writes `clusters`: rewrites the stored ones, inserts the others, then inserts their items.
    package func write(_ clusters: [ClusterWrite], publishedAt: Double) async throws {
        var clusterIDs: [String: Int64] = [:]
        let stored = clusters.filter { $0.storedID != nil }
        if !stored.isEmpty {
            let columns = ClusterColumns(stored)
            try await connection.rows(
                """
                UPDATE cluster AS c SET fingerprint = int8send(t.fingerprint), published = t.published,
                    reason = t.reason, matched_by = t.matched_by, members = t.members,
                    valid_until = CASE WHEN t.valid_p THEN t.valid_until END
                FROM unnest(\(columns.ids)::int8[], \(columns.fingerprints)::int8[], \(columns.published)::bool[],
                            \(columns.reasons)::text[], \(columns.matchedBy)::text[], \(columns.members)::text[],
                            \(columns.validUntil.values)::float8[], \(columns.validUntil.present)::bool[])
                    AS t(id, fingerprint, published, reason, matched_by, members, valid_until, valid_p)
                WHERE c.id = t.id
                """, logger: logger)
            for cluster in stored { clusterIDs[cluster.key] = cluster.storedID }
        }
        let new = clusters.filter { $0.storedID == nil }
        if !new.isEmpty {
            let columns = ClusterColumns(new)
            let rows = try await connection.query(
                """
                INSERT INTO cluster (key, fingerprint, published, reason, matched_by, members, valid_until)
                SELECT t.key, int8send(t.fingerprint), t.published, t.reason, t.matched_by, t.members,
                       CASE WHEN t.valid_p THEN t.valid_until END
                FROM unnest(\(columns.keys)::text[], \(columns.fingerprints)::int8[], \(columns.published)::bool[],
                            \(columns.reasons)::text[], \(columns.matchedBy)::text[], \(columns.members)::text[],
                            \(columns.validUntil.values)::float8[], \(columns.validUntil.present)::bool[])
                    AS t(key, fingerprint, published, reason, matched_by, members, valid_until, valid_p)
                RETURNING key, id
                """, logger: logger)
            for try await (key, id) in rows.decode((String, Int64).self) { clusterIDs[key] = id }
        }
        let items = clusters.compactMap { cluster in cluster.item.map { (cluster.key, $0) } }
        try await insertItems(items, clusterIDs: clusterIDs, publishedAt: publishedAt)
    }

    /// Queues the activity pages `entries` for the crawler unless the crawl already ended them; returns how
    /// many were queued.
    package func queuePending(_ entries: [(key: String, url: String)], at time: Double) async throws -> Int {
        guard !entries.isEmpty else { return 0 }
        return try await connection.rows(
            """
            INSERT INTO pending_url (url_key, url, added_at)
            SELECT t.key, t.url, \(time) FROM unnest(\(entries.map(\.key))::text[], \(entries.map(\.url))::text[])
                AS t(key, url)
            WHERE NOT EXISTS (SELECT 1 FROM crawl_url WHERE url_key = t.key AND state <> 'queued')
            ON CONFLICT DO NOTHING
            RETURNING 1
            """, logger: logger
        ).count
    }

    /// The number of published items, and of withheld clusters by reason, as the index now stands.
    package func indexCounts() async throws -> (published: Int, withheldClusters: [String: Int]) {
        let published =
            try await connection.rows("SELECT count(*)::int8 FROM public_item", logger: logger).first?.decode(Int.self)
            ?? 0
        var withheld: [String: Int] = [:]
        for row in try await connection.rows(
            "SELECT reason, count(*)::int8 FROM cluster WHERE NOT published GROUP BY reason", logger: logger)
        {
            let (reason, count) = try row.decode((String, Int).self)
            withheld[reason, default: 0] += count
        }
        return (published, withheld)
    }

    /// Records the publish (`publish_run`) with its summary as the report reads it.
    package func recordRun(at time: Double, engagementThreshold: Int, changedClusters: Int, summary: String)
        async throws
    {
        try await connection.rows(
            """
            INSERT INTO publish_run (at, engagement_threshold, clusters_changed, summary)
            VALUES (\(time), \(engagementThreshold), \(changedClusters), \(summary))
            """, logger: logger)
    }
}
