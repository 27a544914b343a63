import GRDB

/// Apple's deletion rules in a SQLite store (see ``ItemDeletion``).
extension SQLiteStore {
    package func delete(_ deletion: ItemDeletion) async throws(StoreError) -> DonationCounts {
        try await write { db in
            var counts = DonationCounts()
            try Self.apply(deletion, to: &counts, in: db)
            return counts
        }
    }

    /// Applies `deletion` in the caller's transaction.
    static func apply(_ deletion: ItemDeletion, to counts: inout DonationCounts, in db: Database) throws {
        counts.deletions += 1
        let bundle = deletion.bundle
        var deleted: [String] = []
        switch deletion.scope {
        case .identifiers(let identifiers):
            deleted = identifiers
            for identifier in identifiers {
                try db.cachedStatement(sql: "DELETE FROM app_item WHERE bundle = ? AND unique_identifier = ?")
                    .execute(arguments: [bundle, identifier])
                counts.deletedItems += db.changesCount
            }
        case .domains(let domains):
            for domain in domains {
                // `domain` itself, or a sub-domain: the prefix `domain.` compared as a substring, so no
                // character of the identifier acts as a LIKE or GLOB wildcard.
                let matching = """
                    bundle = ? AND (domain_identifier = ?
                        OR substr(domain_identifier, 1, length(?) + 1) = ? || '.')
                    """
                let arguments: StatementArguments = [bundle, domain, domain, domain]
                deleted += try String.fetchAll(
                    db, sql: "SELECT unique_identifier FROM app_item WHERE \(matching)", arguments: arguments)
                try db.execute(sql: "DELETE FROM app_item WHERE \(matching)", arguments: arguments)
                counts.deletedItems += db.changesCount
            }
        case .all:
            try db.execute(sql: "DELETE FROM app_item WHERE bundle = ?", arguments: [bundle])
            counts.deletedItems += db.changesCount
            counts.deletedActivities += try deleteActivities(
                where: "bundle = ? AND related_id IS NOT NULL", [bundle], in: db)
            return
        }
        for identifier in deleted {
            counts.deletedActivities += try deleteActivities(
                where: "bundle = ? AND related_id = ?", [bundle, identifier], in: db)
        }
    }

    /// Deletes the matching activities and their donor hashes; returns how many activities went.
    ///
    /// The activities are deleted once, returning their identities and pages; their donor hashes go by
    /// identity, and only those pages' pending rows are checked (as on PostgreSQL).
    private static func deleteActivities(where condition: String, _ arguments: StatementArguments, in db: Database)
        throws -> Int
    {
        let gone = try Row.fetchAll(
            db, sql: "DELETE FROM activity WHERE \(condition) RETURNING identity, url_key", arguments: arguments)
        let donors = try db.cachedStatement(sql: "DELETE FROM donation WHERE identity = ?")
        var pages: Set<String> = []
        for row in gone {
            try donors.execute(arguments: [row["identity"] as DatabaseValue])
            if let page: String = row["url_key"] { pages.insert(page) }
        }
        // A web page queued only for deleted activities is no longer wanted.
        let unwanted = try db.cachedStatement(
            sql: """
                DELETE FROM pending_url
                WHERE url_key = ?1 AND NOT EXISTS (SELECT 1 FROM activity WHERE activity.url_key = ?1)
                """)
        for page in pages { try unwanted.execute(arguments: [page]) }
        return gone.count
    }
}
