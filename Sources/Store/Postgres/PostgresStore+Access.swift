import Logging
internal import PostgresNIO

/// How the PostgreSQL store's operations reach the database: a transaction or a single statement on a
/// pooled connection, every failure turned into a one-line ``StoreError`` naming the store.
extension PostgresStore {
    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    ///
    /// Workers on many machines write the same rows (a link many pages share, a host's slots), and
    /// PostgreSQL resolves a lock cycle between two transactions by aborting one of them (`deadlock
    /// detected`, SQLSTATE 40P01); two transactions inserting the same new row at once (a link two pages
    /// share) end with one of them meeting the other's row in a unique index that is not the insert's
    /// `ON CONFLICT` target (`unique_violation`, 23505), which the retry sees as committed and updates
    /// instead. Such a transaction is run again from the start, after a short random pause, up to
    /// ``maxAttempts`` times in all. `body` must therefore only write through the connection.
    func transaction<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws(StoreError) -> Result {
        try await retrying {
            try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        }
    }

    /// Runs `work` (one whole transaction) and runs it again, after a short random pause, when PostgreSQL
    /// aborted it in a way that may simply be retried (``isRetryable(_:)``), up to ``maxAttempts`` times.
    func retrying<Result>(_ work: () async throws -> Result) async throws(StoreError) -> Result {
        var attempt = 1
        while true {
            do {
                return try await work()
            } catch {
                guard attempt < Self.maxAttempts, Self.isRetryable(error) else { throw storeError(error) }
                attempt += 1
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(10 * attempt))))
            }
        }
    }

    /// How many times a transaction aborted by a deadlock, a serialization failure or a concurrent insert
    /// of the same key is tried.
    static let maxAttempts = 8

    /// Whether `error` aborted a transaction that may simply be run again.
    static func isRetryable(_ error: any Error) -> Bool {
        if let error = error as? PostgresTransactionError {
            guard error.rollbackError == nil, let cause = error.closureError ?? error.commitError else { return false }
            return isRetryable(cause)
        }
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001" || state == "23505"
    }

    /// Runs `query` outside any transaction and collects its rows.
    func records(_ query: PostgresQuery) async throws(StoreError) -> [PostgresRow] {
        do {
            return try await client.query(query, logger: logger).collect()
        } catch {
            throw storeError(error)
        }
    }

    /// `error` as the store reports it.
    func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        return StoreError(path: location.description, message: PostgresFailureReason.describe(error, location))
    }
}

extension PostgresConnection {
    /// Runs `query` and collects its rows.
    @discardableResult
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}

extension PostgresRandomAccessRow {
    /// The value of column `name`.
    func value<Value: PostgresDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        try self[name].decode(Value.self)
    }
}
