import Foundation
import Logging
internal import PostgresNIO

/// Importing donations into a PostgreSQL store: the same rows and rules as ``SQLiteStore`` (see
/// ``DonationStore``), one transaction per batch, a few statements per batch (see
/// `PostgresStore+DonationRuns.swift`).
///
/// Every transaction that writes donations first takes one transaction-scoped advisory lock
/// (``donationLockKey``), so imports and deletions run one at a time, as SQLite's single writer runs them:
/// two imports giving the same activity its second and third donor at once would otherwise each count
/// two donors and neither store the content.
extension PostgresStore: DonationStore {
    package func beginImport(engagementThreshold: Int?) async throws(StoreError) -> DonationSettings {
        let logger = logger
        return try await transaction { connection in
            try await Self.lockDonations(connection, logger: logger)
            if let engagementThreshold {
                try await connection.rows(
                    """
                    INSERT INTO setting (name, value) VALUES ('engagement_threshold', \(String(engagementThreshold)))
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """, logger: logger)
                try await connection.rows("DELETE FROM activity WHERE donors < \(engagementThreshold)", logger: logger)
            }
            return try await Self.settings(connection, logger: logger)
        }
    }

    /// Applies `records` with a few set-based statements whatever their number: the withheld records'
    /// hashes at once, then each run of records between two deletions (``DonationRun``: its searchable
    /// items, its donor pairs, its activities above the threshold and their web pages), each deletion where
    /// it stands. The rows and counts are those applying the records one by one gives (see ``SQLiteStore``).
    package func applyDonations(_ records: [DonationWrite], threshold: Int, now: Double) async throws(StoreError)
        -> DonationCounts
    {
        let logger = logger
        return try await transaction { connection in
            try await Self.lockDonations(connection, logger: logger)
            var counts = DonationCounts()
            try await Self.writeWithheld(records, to: &counts, connection, logger)
            var run = DonationRun()
            for record in records {
                switch record {
                case .withheld: continue
                case .activity(let identity, let donor, let content):
                    run.donations.append(DonationRun.Donation(identity: identity, donor: donor, content: content))
                case .searchableItem(let item):
                    run.items.append(item)
                case .delete(let deletion):
                    try await Self.write(run, threshold: threshold, now: now, to: &counts, connection, logger)
                    run = DonationRun()
                    try await Self.apply(deletion, to: &counts, connection: connection, logger: logger)
                }
            }
            try await Self.write(run, threshold: threshold, now: now, to: &counts, connection, logger)
            return counts
        }
    }

    package func withBulkImport<T>(_ body: () async throws -> T) async throws -> T {
        try await body()
    }

    /// The advisory lock that serializes the transactions writing donations ("SLDONATE").
    static let donationLockKey: Int64 = 0x534C_444F_4E41_5445

    static func lockDonations(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.rows("SELECT pg_advisory_xact_lock(\(donationLockKey))", logger: logger)
    }
}
