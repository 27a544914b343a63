import Bridge
import Foundation
import GRDB
import Store

extension PublishWork {
    /// Writes the publish in the caller's transaction; returns the summary as stored for the report.
    /// Deletions come before insertions, so an item that moved between clusters never meets itself.
    func write(to db: Database) throws -> PublishSummary {
        let deleteCluster = try db.cachedStatement(sql: "DELETE FROM cluster WHERE id = ?")
        for id in removed { try deleteCluster.execute(arguments: [id]) }
        let deleteItem = try db.cachedStatement(sql: "DELETE FROM public_item WHERE cluster_id = ?")
        for change in changes { if let id = change.storedID { try deleteItem.execute(arguments: [id]) } }

        let update = try db.cachedStatement(
            sql: """
                UPDATE cluster SET fingerprint = ?, published = ?, reason = ?, matched_by = ?, members = ?,
                    valid_until = ? WHERE id = ?
                """)
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO cluster (key, fingerprint, published, reason, matched_by, members, valid_until)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        let insertItem = try db.cachedStatement(
            sql: """
                INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, bundle, title, description,
                    keywords, domain_identifier, rating, rating_count, engagement, boost, sources, expires_at,
                    last_seen, published_at, item_json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        var items: [(clusterID: Int64, item: PublicItemRow)] = []
        for change in changes {
            let fingerprint = PublishSnapshot.blob(change.fingerprint)
            let reason = change.reason?.rawValue ?? "published"
            let matchedBy = "[" + change.matchedBy.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            let clusterID: Int64
            if let id = change.storedID {
                try update.execute(arguments: [
                    fingerprint, change.item != nil, reason, matchedBy, change.membersJSON, change.validUntil, id,
                ])
                clusterID = id
            } else {
                try insert.execute(arguments: [
                    change.key, fingerprint, change.item != nil, reason, matchedBy, change.membersJSON,
                    change.validUntil,
                ])
                clusterID = db.lastInsertedRowID
            }
            guard let item = change.item else { continue }
            items.append((clusterID, item))
        }
        // Ids in static rank order (ItemRankOrder), inserted in id order: FTS5 flushes its pending
        // terms to a new segment whenever a rowid is not above the previous one.
        var sequence = try ItemRankOrder.reserveSequences(items.count, in: db)
        var numbered: [(id: Int64, boost: Double, clusterID: Int64, item: PublicItemRow)] = []
        numbered.reserveCapacity(items.count)
        for (clusterID, item) in items {
            // Engagement ranks, with diminishing returns: the 1,000th donor adds less than the 3rd.
            let boost = log(1 + Double(item.engagement))
            numbered.append((ItemRankOrder.id(boost: boost, sequence: sequence), boost, clusterID, item))
            sequence += 1
        }
        for (id, boost, clusterID, item) in numbered.sorted(by: { $0.id < $1.id }) {
            try insertItem.execute(arguments: [
                id, clusterID, item.uniqueIdentifier, item.webpageURL, item.bundle, item.title, item.description,
                item.keywords, item.domainIdentifier, item.rating, item.ratingCount, item.engagement, boost,
                item.sources.joined(separator: ","), item.expiresAt, item.lastSeen, summary.publishedAt,
                item.itemJSON,
            ])
        }
        var added = 0
        let addPending = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO pending_url (url_key, url, added_at) VALUES (?, ?, ?)")
        for (key, url) in pending {
            try addPending.execute(arguments: [key, url, summary.publishedAt])
            added += db.changesCount
        }
        var final = summary
        final.pendingURLs = added
        try Self.recount(&final, recordCounts: recordCounts, in: db)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(final), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO publish_run (at, engagement_threshold, clusters_changed, summary) VALUES (?, ?, ?, ?)
                """,
            arguments: [final.publishedAt, final.engagementThreshold, final.changedClusters, json])
        return final
    }

    /// Counts from what is now in the index (unchanged clusters included).
    static func recount(_ summary: inout PublishSummary, recordCounts: [String: Int], in db: Database) throws {
        summary.published = try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") ?? 0
        var withheld = recordCounts
        for row in try Row.fetchAll(
            db, sql: "SELECT reason, count(*) AS n FROM cluster WHERE published = 0 GROUP BY reason")
        {
            withheld[row["reason"], default: 0] += row["n"] as Int
        }
        summary.withheld = withheld
    }
}
