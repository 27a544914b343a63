import Foundation
internal import PostgresNIO

/// The crawl passes and the frontier's reads on PostgreSQL: the same contract as the SQLite store's
/// (``CrawlStore``), the same rows.
extension PostgresStore: CrawlStore {
    package var displayName: String { location.description }

    package func beginRun(
        seeds: [String], now: Double, worker: CrawlWorker, refreshingAt: Double?
    ) async throws(StoreError) -> CrawlRunInfo {
        let logger = logger
        return try await transaction { connection in
            // One pass at a time: the workers starting together serialize here, and all join the first's.
            try await connection.rows("SELECT pg_advisory_xact_lock(\(Self.passLockKey))", logger: logger)
            let info: CrawlRunInfo
            if let row = try await connection.rows(
                """
                SELECT id, started_at, counters, seeds, due_before FROM crawl_run
                WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1
                """, logger: logger
            ).first?.makeRandomAccess() {
                info = CrawlRunInfo(
                    id: try row.value("id"), isResumed: true, startedAt: try row.value("started_at"),
                    countersJSON: try row.value("counters"),
                    seeds: RefreshRules.decodeSeeds(try row.value("seeds", as: String?.self)),
                    dueBefore: try row.value("due_before", as: Double?.self))
            } else {
                var passSeeds = seeds
                if refreshingAt != nil {
                    var earlier: [String] = []
                    for row in try await connection.rows("SELECT seeds FROM crawl_run ORDER BY id", logger: logger) {
                        earlier.append(try row.makeRandomAccess().value("seeds", as: String.self))
                    }
                    passSeeds = RefreshRules.seeds(earlier: earlier, given: seeds)
                }
                let id =
                    try await connection.rows(
                        """
                        INSERT INTO crawl_run (started_at, seeds, due_before)
                        VALUES (\(now), \(RefreshRules.encodeSeeds(passSeeds)), \(refreshingAt)) RETURNING id
                        """, logger: logger
                    ).first?.makeRandomAccess().value("id", as: Int64.self) ?? 0
                var due = 0
                if let refreshingAt {
                    var binds = PostgresBindings()
                    binds.append(id)
                    binds.append(refreshingAt)
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: RefreshRules.queueSitemaps(run: "$1::int8", dueBefore: "$2::float8"),
                            binds: binds),
                        logger: logger)
                    let queue = RefreshRules.queueDuePages(run: "$1::int8", dueBefore: "$2::float8")
                    due =
                        try await connection.rows(
                            PostgresQuery(
                                unsafeSQL: "WITH queued AS (\(queue) RETURNING 1) SELECT COUNT(*) AS n FROM queued",
                                binds: binds), logger: logger
                        ).first?.makeRandomAccess().value("n", as: Int.self) ?? 0
                }
                info = CrawlRunInfo(
                    id: id, isResumed: false, startedAt: now, countersJSON: "{}", seeds: passSeeds,
                    dueBefore: refreshingAt, due: due)
            }
            try await connection.rows(
                """
                INSERT INTO crawl_worker (owner, run_id, machine, pid, started_at, seen_at)
                VALUES (\(worker.owner), \(info.id), \(worker.machine), \(Int(worker.pid)), \(now), \(now))
                """, logger: logger)
            try await Self.releaseDeadWorkers(run: info.id, of: worker, connection: connection, logger: logger)
            return info
        }
    }

    package func finishRun(_ id: Int64, force: Bool, now: Double) async throws(StoreError) {
        _ = try await records(
            """
            UPDATE crawl_run SET finished_at = \(now) WHERE id = \(id) AND finished_at IS NULL
              AND (\(force) OR NOT EXISTS (SELECT 1 FROM crawl_url WHERE run_id = \(id) AND state = 'queued'))
            """)
    }

    package func queuedHosts(run: Int64, worker: CrawlWorker) async throws(StoreError) -> [QueuedHost] {
        let found = try await records(
            """
            SELECT host,
                   MIN(CASE WHEN lease_owner IS NULL THEN not_before
                            WHEN lease_owner = \(worker.owner) THEN NULL
                            ELSE GREATEST(not_before, lease_until) END) AS due,
                   COALESCE(BOOL_OR(lease_owner IS NOT NULL AND lease_owner <> \(worker.owner)), FALSE) AS others
            FROM crawl_url WHERE run_id = \(run) AND state = 'queued' GROUP BY host
            """)
        do {
            return try found.compactMap { row in
                let row = row.makeRandomAccess()
                // A host whose queued URLs are all this worker's (taken, in flight) has nothing new for it.
                guard let due = try row.value("due", as: Double?.self) else { return nil }
                return QueuedHost(host: try row.value("host"), due: due, leasedByOthers: try row.value("others"))
            }
        } catch {
            throw storeError(error)
        }
    }

    package func seedsOfEveryPass() async throws(StoreError) -> [String] {
        let found = try await records("SELECT seeds FROM crawl_run ORDER BY id")
        do {
            let earlier = try found.map { try $0.makeRandomAccess().value("seeds", as: String.self) }
            return RefreshRules.seeds(earlier: earlier, given: [])
        } catch {
            throw storeError(error)
        }
    }

    package func queuedCount(run: Int64) async throws(StoreError) -> Int {
        try await count("SELECT COUNT(*) AS n FROM crawl_url WHERE run_id = \(run) AND state = 'queued'")
    }

    package func hostFile(host: String, name: String) async throws(StoreError) -> HostFile? {
        let found = try await records("SELECT * FROM host_file WHERE host = \(host) AND name = \(name)")
        do {
            return try found.first.map { try Self.hostFile($0.makeRandomAccess(), host: host, name: name) }
        } catch {
            throw storeError(error)
        }
    }

    package func pendingURLs(after key: String?, limit: Int) async throws(StoreError) -> [PendingURL] {
        let found = try await records(
            """
            SELECT url_key, url FROM pending_url WHERE \(key)::text IS NULL OR url_key > \(key)
            ORDER BY url_key LIMIT \(limit)
            """)
        do {
            return try found.map {
                let row = $0.makeRandomAccess()
                return PendingURL(key: try row.value("url_key"), url: try row.value("url"))
            }
        } catch {
            throw storeError(error)
        }
    }

    package func hasPendingURLs() async throws(StoreError) -> Bool {
        try await count("SELECT COUNT(*) AS n FROM (SELECT 1 FROM pending_url LIMIT 1) AS one") > 0
    }

    /// The advisory lock that serializes joining or starting a pass ("SEARCHLP").
    static let passLockKey: Int64 = 0x5345_4152_4348_4C50

    /// The single number `query` answers, in a column named `n`.
    func count(_ query: PostgresQuery) async throws(StoreError) -> Int {
        let found = try await records(query)
        do {
            return try found.first?.makeRandomAccess().value("n", as: Int.self) ?? 0
        } catch {
            throw storeError(error)
        }
    }

    static func hostFile(_ row: PostgresRandomAccessRow, host: String, name: String) throws -> HostFile {
        HostFile(
            host: host, name: name, fetchedAt: try row.value("fetched_at"),
            httpStatus: try row.value("http_status", as: Int?.self),
            body: try row.value("body", as: Data?.self).map { [UInt8]($0) }, detail: try row.value("detail"))
    }
}
