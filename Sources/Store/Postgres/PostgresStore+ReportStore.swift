internal import PostgresNIO

extension PostgresStore: ReportStore {
    package func lastPublishSummary() async throws(StoreError) -> String? {
        do {
            return try await records("SELECT summary FROM publish_run ORDER BY id DESC LIMIT 1").first?.decode(
                String.self)
        } catch {
            throw storeError(error)
        }
    }

    package func forEachReportCluster(limit: Int?, _ body: (ReportClusterRow) async throws -> Void) async throws {
        do {
            // One statement, streamed: the rows arrive as the report is written, in constant memory.
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: ReportClusterRow.query(limit: "$1::int8"), binds: Self.binds(limit)),
                logger: logger)
            for try await row in rows.decode((String, Bool, String, String, String, String?).self) {
                try await body(
                    ReportClusterRow(
                        key: row.0, published: row.1, reason: row.2, matchedBy: row.3, members: row.4,
                        uniqueIdentifier: row.5))
            }
        } catch let error as PSQLError {
            throw storeError(error)
        }
    }

    private static func binds(_ limit: Int?) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(limit)
        return binds
    }
}
