import Logging
internal import PostgresNIO

/// Apple's deletion rules on PostgreSQL (see ``ItemDeletion``), the same rows as ``SQLiteStore`` deletes.
extension PostgresStore {
    package func delete(_ deletion: ItemDeletion) async throws(StoreError) -> DonationCounts {
        let logger = logger
        return try await transaction { connection in
            try await Self.lockDonations(connection, logger: logger)
            var counts = DonationCounts()
            try await Self.apply(deletion, to: &counts, connection: connection, logger: logger)
            return counts
        }
    }

    /// Applies `deletion` in the caller's transaction.
    static func apply(
        _ deletion: ItemDeletion, to counts: inout DonationCounts, connection: PostgresConnection, logger: Logger
    ) async throws {
        counts.deletions += 1
        let bundle = deletion.bundle
        var deleted: [String] = []
        switch deletion.scope {
        case .identifiers(let identifiers):
            deleted = identifiers
            for identifier in identifiers {
                counts.deletedItems += try await count(
                    """
                    WITH gone AS (
                        DELETE FROM app_item WHERE bundle = \(bundle) AND unique_identifier = \(identifier) RETURNING 1)
                    SELECT count(*) FROM gone
                    """, connection, logger)
            }
        case .domains(let domains):
            for domain in domains {
                // `domain` itself, or a sub-domain: the prefix `domain.` compared as a substring, so no
                // character of the identifier acts as a LIKE wildcard.
                let rows = try await connection.rows(
                    """
                    DELETE FROM app_item
                    WHERE bundle = \(bundle) AND (domain_identifier = \(domain)
                        OR substr(domain_identifier, 1, length(\(domain)) + 1) = \(domain) || '.')
                    RETURNING unique_identifier
                    """, logger: logger)
                counts.deletedItems += rows.count
                for row in rows { deleted.append(try row.decode(String.self)) }
            }
        case .all:
            counts.deletedItems += try await count(
                "WITH gone AS (DELETE FROM app_item WHERE bundle = \(bundle) RETURNING 1) SELECT count(*) FROM gone",
                connection, logger)
            counts.deletedActivities += try await deleteActivities(
                bundle: bundle, relatedTo: nil, connection: connection, logger: logger)
            return
        }
        for identifier in deleted {
            counts.deletedActivities += try await deleteActivities(
                bundle: bundle, relatedTo: identifier, connection: connection, logger: logger)
        }
    }

    /// Deletes the activities of `bundle` that name `identifier` as their related item (any item when
    /// `nil`), and their donor hashes; returns how many activities went.
    ///
    /// Every statement goes through an index: the activities by `(bundle, related_id)`, returning their
    /// identities and page keys; their donor hashes by identity; and only those pages' pending rows, when
    /// no other activity still points to them. (Checking every pending URL against the activities after
    /// each deletion, or selecting the donor hashes through the activities' condition, reads tables whole:
    /// a cost per deletion that grows with the store.)
    private static func deleteActivities(
        bundle: String, relatedTo identifier: String?, connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        var identities: [ByteBuffer] = []
        var pages: Set<String> = []
        for try await (identity, page) in try await connection.query(
            """
            DELETE FROM activity
            WHERE bundle = \(bundle) AND related_id IS NOT NULL
                AND (\(identifier)::text IS NULL OR related_id = \(identifier))
            RETURNING identity, url_key
            """, logger: logger
        ).decode((ByteBuffer, String?).self) {
            identities.append(identity)
            if let page { pages.insert(page) }
        }
        guard !identities.isEmpty else { return 0 }
        try await connection.rows(
            "DELETE FROM donation WHERE identity = ANY(\(identities)::bytea[])", logger: logger)
        if !pages.isEmpty {
            // A web page queued only for deleted activities is no longer wanted.
            try await connection.rows(
                """
                DELETE FROM pending_url
                WHERE url_key = ANY(\(Array(pages))::text[])
                    AND NOT EXISTS (SELECT 1 FROM activity WHERE activity.url_key = pending_url.url_key)
                """, logger: logger)
        }
        return identities.count
    }

    /// The count `query` (a `SELECT count(*)`) returns.
    private static func count(_ query: PostgresQuery, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> Int
    {
        try await connection.rows(query, logger: logger).first?.decode(Int.self) ?? 0
    }
}
