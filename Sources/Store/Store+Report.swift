import GRDB

extension Store: ReportStore {
    package func lastPublishSummary() async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT summary FROM publish_run ORDER BY id DESC LIMIT 1")
        }
    }

    package func forEachReportCluster(limit: Int?, _ body: (ReportClusterRow) throws -> Void) async throws {
        do {
            try readClusters(limit: limit, body)
        } catch let error as DatabaseError {
            throw StoreError(path: path, underlying: error)
        }
    }

    private func readClusters(limit: Int?, _ body: (ReportClusterRow) throws -> Void) throws {
        // Row by row in constant memory, on the calling thread (as SQLite reads always blocked the report's
        // one task): `body`, which writes the report out, is not sendable.
        try pool.read { db in
            let rows = try Row.fetchCursor(db, sql: ReportClusterRow.query(limit: "?"), arguments: [limit ?? -1])
            while let row = try rows.next() {
                try body(
                    ReportClusterRow(
                        key: row["key"], published: row["published"], reason: row["reason"],
                        matchedBy: row["matched_by"], members: row["members"],
                        uniqueIdentifier: row["unique_identifier"]))
            }
        }
    }
}
