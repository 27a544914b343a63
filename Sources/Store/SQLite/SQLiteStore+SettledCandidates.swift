import GRDB

extension SQLiteStore {
    /// The keys among `candidates` whose frontier rows the upsert of ``commit(_:run:worker:)`` would leave
    /// alone (``SettledCandidates``), read in a few look-ups instead of one statement per candidate: for a
    /// refresh pass (`dueBefore` set), where the links of a changed page nearly all lead to pages of an
    /// earlier pass that are not due.
    static func settledKeys(
        of candidates: [FrontierCandidate], run: Int64, dueBefore: Double, db: Database
    ) throws -> Set<String> {
        var settled = SettledCandidates(candidates, run: run, dueBefore: dueBefore)
        let keys = settled.keysToRead
        guard !keys.isEmpty else { return [] }
        // One cached statement of `lookupWidth` keys, the last chunk padded with NULL (which matches no key).
        let statement = try db.cachedStatement(
            sql: """
                SELECT url_key, run_id, state, depth, kind, next_visit_at, COALESCE(visited_at, fetched_at)
                FROM crawl_url WHERE url_key IN (\(Array(repeating: "?", count: lookupWidth).joined(separator: ", ")))
                """)
        for start in stride(from: 0, to: keys.count, by: lookupWidth) {
            let chunk = keys[start..<min(start + lookupWidth, keys.count)]
            let values = chunk.map { $0.databaseValue } + Array(repeating: .null, count: lookupWidth - chunk.count)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(values))
            while let row = try rows.next() {
                // Read as optionals: a row that does not read as expected is simply not settled (the upsert decides).
                guard let key: String = row[0], let rowRun: Int64 = row[1], let state: String = row[2],
                    let depth: Int = row[3], let kind = (row[4] as String?).flatMap(FrontierKind.init(rawValue:))
                else { continue }
                settled.note(
                    key: key, rowRun: rowRun, state: state, depth: depth, kind: kind, nextVisitAt: row[5],
                    visitedAt: row[6])
            }
        }
        return settled.keys
    }

    /// Keys per look-up of ``settledKeys(of:run:dueBefore:db:)``.
    private static let lookupWidth = 64
}
