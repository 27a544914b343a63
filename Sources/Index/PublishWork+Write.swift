import Bridge
import Foundation
import GRDB
import Logging
import Store

extension PublishWork {
    /// Writes the publish in the caller's transaction; returns the summary as stored for the report.
    /// Deletions come before insertions, so an item that moved between clusters never meets itself.
    ///
    /// The items are built on another thread, a chunk ahead, from `reader` (the store's pool): what they
    /// read (pages, activities, donor hashes) is nothing this transaction changes, and while it holds the
    /// write lock nothing else can change it, so a read transaction begun now sees what this one sees.
    func write(to db: Database, buildingWith reader: any DatabaseReader, logger: Logger) throws -> PublishSummary {
        // Two publishes may overlap (two processes): the second would write clusters computed from a
        // snapshot the first already changed. Only the first to write wins; the other recomputes.
        let latest = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM publish_run") ?? 0
        guard latest == lastPublishID else { throw Overtaken() }
        // Full-text rows are removed and added in bulk (see the schema's note on FTS5 and savepoints).
        try db.execute(
            sql: """
                INSERT INTO setting (name, value) VALUES ('fts_bulk', '1');
                CREATE TEMP TABLE IF NOT EXISTS publish_gone (cluster_id INTEGER PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS publish_new (id INTEGER PRIMARY KEY);
                DELETE FROM temp.publish_gone;
                DELETE FROM temp.publish_new;
                """)
        try Self.prepareGrams(db)
        let gone = try db.cachedStatement(sql: "INSERT OR IGNORE INTO temp.publish_gone (cluster_id) VALUES (?)")
        for id in removed { try gone.execute(arguments: [id]) }
        for entry in changed { if let id = entry.storedID { try gone.execute(arguments: [id]) } }
        try Self.removeGrams(db)
        // In id order, as the insertions below: FTS5 writes out its pending changes whenever a rowid is not
        // above the previous one, and 9,500 deletions in cluster order took 15 s instead of 1.9 s.
        try db.execute(
            sql: """
                INSERT INTO public_fts (public_fts, rowid, title, description, keywords)
                SELECT 'delete', id, title, description, keywords FROM public_item
                WHERE cluster_id IN (SELECT cluster_id FROM temp.publish_gone) ORDER BY id;
                DELETE FROM public_item WHERE cluster_id IN (SELECT cluster_id FROM temp.publish_gone);
                """)
        let deleteCluster = try db.cachedStatement(sql: "DELETE FROM cluster WHERE id = ?")
        for id in removed { try deleteCluster.execute(arguments: [id]) }

        // Item ids follow the static rank order (ItemRankOrder): reserve one sequence number per item.
        var sequence = try ItemRankOrder.reserveSequences(changed.count { $0.plan.isPublished }, in: db)
        let statements = try ClusterStatements(db)
        let built = buildChanges(with: reader)
        defer { built.cancel() }  // a failed write stops the builder at its next chunk
        var unreadablePageItems = 0
        while let chunk = try built.receive() {
            for change in chunk {
                Self.note(change, unreadableCount: &unreadablePageItems, logger: logger)
                try statements.write(change, publishedAt: summary.publishedAt, sequence: &sequence, db: db)
            }
        }
        // In id order: FTS5 starts a new segment whenever a rowid is not above the previous one.
        try db.execute(
            sql: """
                INSERT INTO public_fts (rowid, title, description, keywords)
                SELECT id, title, description, keywords FROM public_item
                WHERE id IN (SELECT id FROM temp.publish_new) ORDER BY id;
                DELETE FROM setting WHERE name = 'fts_bulk';
                DELETE FROM temp.publish_gone;
                DELETE FROM temp.publish_new;
                """)
        try Self.addGrams(db)
        var added = 0
        // A crawl may have fetched the URL since the snapshot: queue only what is still unfetched.
        let addPending = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO pending_url (url_key, url, added_at)
                SELECT ?1, ?2, ?3 WHERE NOT EXISTS (SELECT 1 FROM crawl_url WHERE url_key = ?1 AND state != 'queued')
                """)
        for (key, url) in pending {
            try addPending.execute(arguments: [key, url, summary.publishedAt])
            added += db.changesCount
        }
        var final = summary
        final.pendingURLs = added
        final.unreadablePageItems = unreadablePageItems > 0 ? unreadablePageItems : nil
        try Self.recount(&final, recordCounts: recordCounts, in: db)
        let json = try Self.storedJSON(final)
        try db.execute(
            sql: """
                INSERT INTO publish_run (at, engagement_threshold, clusters_changed, summary) VALUES (?, ?, ?, ?)
                """,
            arguments: [final.publishedAt, final.engagementThreshold, final.changedClusters, json])
        return final
    }

    /// How many unreadable page items one publish logs as warnings; the rest are logged at debug level.
    static let unreadableWarnings = 10

    /// Counts and logs `change`'s unreadable page item, if it has one: the first few are warnings that
    /// name the page and the reason; a store full of them must not flood the log.
    static func note(_ change: Change, unreadableCount count: inout Int, logger: Logger) {
        guard let unreadable = change.unreadablePageItem else { return }
        count += 1
        logger.log(
            level: count <= unreadableWarnings ? .warning : .debug,
            "a page's stored item does not decode; published as if the page had none",
            metadata: ["url": "\(unreadable.url)", "reason": "\(unreadable.error)"])
    }

    /// A cluster's reason when it is published.
    static let publishedReason = "published"

    /// Engagement ranks with diminishing returns: the 1,000th donor adds less than the 3rd.
    static func boost(engagement: Int) -> Double {
        log(1 + Double(engagement))
    }

    /// The cluster's `matchedBy` list as stored (JSON); its entries are the bridge's fixed link names.
    static func matchedByJSON(_ matchedBy: [String]) -> String {
        "[" + matchedBy.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// The summary as `publish_run` stores it for the report (sorted keys).
    static func storedJSON(_ summary: PublishSummary) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }

    /// Starts a thread that builds the changed clusters' rows, 1,000 clusters at a time in order, each in
    /// a read transaction of its own, and hands them over at most two chunks ahead of the writer.
    private func buildChanges(with reader: any DatabaseReader) -> BatchChannel<[Change]> {
        BatchChannel.produced(by: "searchlight-publish-builder") { [self] send in
            for chunk in changed.chunked(1000) {
                try send(reader.read { db in changes(chunk, content: try content(of: chunk, db: db)) })
            }
        }
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

/// The prepared statements that write one changed cluster and its item.
private struct ClusterStatements {
    let update: Statement
    let insert: Statement
    let insertItem: Statement
    let noteNew: Statement
    let noteGrams: Statement

    init(_ db: Database) throws {
        update = try db.cachedStatement(
            sql: """
                UPDATE cluster SET fingerprint = ?, published = ?, reason = ?, matched_by = ?, members = ?,
                    valid_until = ? WHERE id = ?
                """)
        insert = try db.cachedStatement(
            sql: """
                INSERT INTO cluster (key, fingerprint, published, reason, matched_by, members, valid_until)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        insertItem = try db.cachedStatement(
            sql: """
                INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, bundle, title, description,
                    keywords, domain_identifier, rating, rating_count, engagement, boost, sources, expires_at,
                    last_seen, published_at, item_json, title_fold)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        noteNew = try db.cachedStatement(sql: "INSERT INTO temp.publish_new (id) VALUES (?)")
        noteGrams = try db.cachedStatement(sql: PublishWork.noteGramsSQL)
    }

    func write(_ change: PublishWork.Change, publishedAt: Double, sequence: inout Int64, db: Database) throws {
        let fingerprint = StoredClusterRow.stored(change.fingerprint)
        let reason = change.reason?.rawValue ?? PublishWork.publishedReason
        let matchedBy = PublishWork.matchedByJSON(change.matchedBy)
        let clusterID: Int64
        if let id = change.storedID {
            try update.execute(arguments: [
                fingerprint, change.item != nil, reason, matchedBy, change.membersJSON, change.validUntil, id,
            ])
            clusterID = id
        } else {
            try insert.execute(arguments: [
                change.key, fingerprint, change.item != nil, reason, matchedBy, change.membersJSON, change.validUntil,
            ])
            clusterID = db.lastInsertedRowID
        }
        guard let item = change.item else { return }
        let boost = PublishWork.boost(engagement: item.engagement)
        let id = ItemRankOrder.id(boost: boost, sequence: sequence)
        sequence += 1
        try insertItem.execute(arguments: [
            id, clusterID, item.uniqueIdentifier, item.webpageURL, item.bundle, item.title, item.description,
            item.keywords, item.domainIdentifier, item.rating, item.ratingCount, item.engagement, boost,
            item.sources.joined(separator: ","), item.expiresAt, item.lastSeen, publishedAt, item.itemJSON,
            Store.foldedPrefix(item.title),
        ])
        try noteNew.execute(arguments: [id])
        if let grams = change.grams {
            try noteGrams.execute(arguments: [id, grams.title, grams.description, grams.keywords])
        }
    }
}
