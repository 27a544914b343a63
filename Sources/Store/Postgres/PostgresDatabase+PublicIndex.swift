internal import PostgresNIO

/// One item found by a search of the public index: the fields `search` prints (SPEC §6) and its score.
package struct PublicSearchRow: Sendable, Hashable {
    package var uniqueIdentifier: String
    package var title: String
    package var description: String?
    package var webpageURL: String?
    /// The item's sources as stored: names separated by commas.
    package var sources: String
    package var score: Double
}

/// A page of search results read from the store: the hits, best first, and how many items matched.
package struct PublicSearchPage: Sendable, Hashable {
    package var total: Int
    package var rows: [PublicSearchRow]
}

/// The public index's reading operations on PostgreSQL: a compiled search run, the export streamed.
extension PostgresDatabase {
    /// Runs a search compiled for PostgreSQL and reads its page's hits, in one statement.
    ///
    /// - Parameters:
    ///   - sql: a statement over `public_item AS item` whose columns are the item's id, unique identifier,
    ///     score and the number of items that match (all of them, not only the page), best first (score
    ///     descending, then id) — what the index modules' `PostgresSearch` compiles. User text must be in
    ///     `arguments` only.
    ///   - arguments: bound to `$1`, `$2`… in order.
    /// - Throws: ``StoreError`` when the statement fails.
    package func searchPublicIndex(_ sql: String, arguments: [PostgresValue]) async throws(StoreError)
        -> PublicSearchPage
    {
        // Only the page's rows are joined for their text: the statement ranks and counts every match.
        let query = PostgresQuery(
            unsafeSQL: """
                WITH page AS (\(sql))
                SELECT page.total, page.score, item.unique_identifier, item.title, item.description,
                    item.webpage_url, item.sources
                FROM page JOIN public_item AS item ON item.id = page.id
                ORDER BY page.score DESC, page.id
                """,
            binds: Self.bindings(arguments))
        var page = PublicSearchPage(total: 0, rows: [])
        do {
            let rows = try await client.query(query, logger: logger)
            for try await (total, score, identifier, title, description, url, sources) in rows.decode(
                (Int, Double, String, String, String?, String?, String).self)
            {
                page.total = total
                page.rows.append(
                    PublicSearchRow(
                        uniqueIdentifier: identifier, title: title, description: description, webpageURL: url,
                        sources: sources, score: score))
            }
        } catch {
            throw storeError(error)
        }
        return page
    }

    /// ``PublicIndexStore/forEachPublicItemBatch(batchBytes:_:)`` on PostgreSQL: one statement (one snapshot),
    /// its rows streamed. PostgresNIO reads rows from the connection only as they are consumed (a bounded
    /// read-ahead), so the server waits while `body` writes; the column is `COLLATE "C"`, so the order is
    /// byte order, as on SQLite.
    func forEachPublicItemBatch(batchBytes: Int, _ body: @escaping @Sendable ([String]) throws -> Void)
        async throws -> Int
    {
        // What `body` throws is told apart from the store's failures and rethrown as it is.
        struct Failure: Error { var error: any Error }
        let handOver: ([String]) throws -> Void = { batch in
            do { try body(batch) } catch { throw Failure(error: error) }
        }
        do {
            let rows = try await client.query(
                "SELECT item_json FROM public_item ORDER BY unique_identifier", logger: logger)
            var batcher = PublicItemBatcher(batchBytes: batchBytes)
            for try await json in rows.decode(String.self) { try batcher.add(json, handOver) }
            try batcher.flush(handOver)
            return batcher.count
        } catch let failure as Failure {
            throw failure.error
        } catch {
            throw storeError(error)
        }
    }
}
