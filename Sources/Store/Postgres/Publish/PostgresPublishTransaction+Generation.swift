internal import PostgresNIO

/// A publish that changes the public index is one generation of it (``IndexGeneration``): it takes the next
/// number before it deletes or inserts an item (the removal trigger and the item insert read it), and when it
/// is done it prunes the oldest removals and notifies the replicas, which hear it when the transaction
/// commits (PostgreSQL delivers a `NOTIFY` at commit, and never one of a transaction rolled back).
extension PostgresPublishTransaction {
    /// Starts the next generation and returns its number. Publishers hold the publish lock, so numbers are
    /// taken one publish at a time and in commit order.
    package func beginGeneration() async throws -> Int64 {
        try await connection.rows(
            """
            UPDATE setting SET value = (value::int8 + 1)::text WHERE name = \(IndexGeneration.currentSetting)
            RETURNING value::int8
            """, logger: logger
        ).first?.decode(Int64.self) ?? 0
    }

    /// Ends `generation`: removals more than ``IndexGeneration/keptGenerations`` generations old are pruned
    /// (a replica that far behind is rebuilt instead), and the replicas are told.
    package func endGeneration(_ generation: Int64) async throws {
        let floor = generation - IndexGeneration.keptGenerations
        if floor > 0 {
            try await connection.rows(
                "DELETE FROM public_item_removal WHERE generation <= \(floor)", logger: logger)
            try await connection.rows(
                """
                UPDATE setting SET value = \(String(floor)) WHERE name = \(IndexGeneration.historySetting)
                    AND value::int8 < \(floor)
                """, logger: logger)
        }
        try await connection.rows(
            "SELECT pg_notify(\(IndexGeneration.channel), \(String(generation)))", logger: logger)
    }
}
