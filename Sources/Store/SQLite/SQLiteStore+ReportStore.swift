import GRDB

extension SQLiteStore: ReportStore {
    package func lastPublishSummary() async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT summary FROM publish_run ORDER BY id DESC LIMIT 1")
        }
    }

    package func forEachReportCluster(limit: Int?, _ body: (ReportClusterRow) async throws -> Void) async throws {
        // SQLite reads block: the rows are read on a thread of their own and handed over in batches, so a
        // report of a million clusters never holds a thread of the cooperative pool (where a server's
        // searches run) and the consumer's pace bounds the memory.
        let channel = BatchChannel<[ReportClusterRow]>.produced(by: "searchlight-report-reader") {
            [pool, limit] send in
            try pool.read { db in
                let rows = try Row.fetchCursor(
                    db, sql: ReportClusterRow.query(limit: "?"), arguments: [limit ?? -1])
                var batch: [ReportClusterRow] = []
                batch.reserveCapacity(Self.reportBatchSize)
                while let row = try rows.next() {
                    batch.append(
                        ReportClusterRow(
                            key: row["key"], published: row["published"], reason: row["reason"],
                            matchedBy: row["matched_by"], members: row["members"],
                            uniqueIdentifier: row["unique_identifier"]))
                    if batch.count == Self.reportBatchSize {
                        try send(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty { try send(batch) }
            }
        }
        do {
            while let batch = try await channel.next() {
                for row in batch { try await body(row) }
            }
        } catch let error as DatabaseError {
            channel.cancel()
            throw StoreError(path: path, underlying: error)
        } catch {
            channel.cancel()
            throw error
        }
    }

    /// Clusters per hand-over from the reading thread.
    private static let reportBatchSize = 512
}
