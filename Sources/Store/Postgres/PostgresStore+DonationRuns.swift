import Foundation
import Logging
internal import PostgresNIO

/// A batch's withheld records, searchable items and activity donations written with a few statements over
/// `unnest`ed arrays (``PostgresColumn``) instead of one round trip per record, with the rows and counts
/// that applying the records one by one gives (``DonationRun``).
extension PostgresStore {
    /// Stores the withheld records' hashes (the first record of a hash keeps its row, as one by one) and
    /// counts every record by reason.
    static func writeWithheld(
        _ records: [DonationWrite], to counts: inout DonationCounts, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        var hashes: [ByteBuffer] = [], bundles: [String] = [], reasons: [String] = []
        var seen: Set<Data> = []
        for case .withheld(let hash, let bundle, let reason) in records {
            counts.withheld[reason, default: 0] += 1
            guard seen.insert(hash).inserted else { continue }
            hashes.append(ByteBuffer(bytes: hash))
            bundles.append(bundle)
            reasons.append(reason)
        }
        guard !hashes.isEmpty else { return }
        try await connection.rows(
            """
            INSERT INTO withheld_record (hash, bundle, reason)
            SELECT w.hash, w.bundle, w.reason
            FROM unnest(\(hashes)::bytea[], \(bundles)::text[], \(reasons)::text[]) WITH ORDINALITY AS w(hash, bundle, reason, n)
            ORDER BY w.n
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// Writes `run`'s searchable items and activity donations, adding what changed to `counts`.
    static func write(
        _ run: DonationRun, threshold: Int, now: Double, to counts: inout DonationCounts,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        if !run.items.isEmpty {
            counts.searchableItems += try await upsertItems(ItemUpsert.fold(run.items), now: now, connection, logger)
        }
        guard !run.donations.isEmpty else { return }
        let plan = ActivityPlan(run.donations)
        let (added, priorDonors) = try await offerDonations(plan.pairs, connection, logger)
        let outcome = plan.outcome(added: added, priorDonors: priorDonors, threshold: threshold)
        counts.newDonations += outcome.newDonations
        counts.belowThreshold += outcome.belowThreshold
        guard !outcome.upserts.isEmpty else { return }
        counts.storedActivities +=
            try await storeActivities(outcome, now: now, connection, logger) + outcome.laterChanges
    }

    /// Upserts the items; returns how many records changed a row. The first record of an item is compared
    /// with the stored row here, the later ones were compared in Swift (``ItemUpsert``).
    private static func upsertItems(
        _ upserts: [ItemUpsert], now: Double, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Int {
        var bundles: [String] = [], identifiers: [String] = [], later: [Int] = []
        var firstDomains = PostgresColumn<String>(), firstExpiries = PostgresColumn<Double>()
        var lastDomains = PostgresColumn<String>(), lastExpiries = PostgresColumn<Double>()
        for upsert in upserts {
            bundles.append(upsert.first.bundle)
            identifiers.append(upsert.first.uniqueIdentifier)
            later.append(upsert.laterChanges)
            firstDomains.append(upsert.first.domainIdentifier)
            firstExpiries.append(upsert.first.expiresAt)
            lastDomains.append(upsert.last.domainIdentifier)
            lastExpiries.append(upsert.last.expiresAt)
        }
        let rows = try await connection.rows(
            """
            WITH offered AS (
                SELECT u.n, u.bundle, u.identifier, u.later,
                    CASE WHEN u.first_domain_p THEN u.first_domain END AS first_domain,
                    CASE WHEN u.first_expiry_p THEN u.first_expiry END AS first_expiry,
                    CASE WHEN u.last_domain_p THEN u.last_domain END AS last_domain,
                    CASE WHEN u.last_expiry_p THEN u.last_expiry END AS last_expiry
                FROM unnest(
                    \(bundles)::text[], \(identifiers)::text[], \(later)::int8[],
                    \(firstDomains.values)::text[], \(firstDomains.present)::bool[],
                    \(firstExpiries.values)::float8[], \(firstExpiries.present)::bool[],
                    \(lastDomains.values)::text[], \(lastDomains.present)::bool[],
                    \(lastExpiries.values)::float8[], \(lastExpiries.present)::bool[]
                ) WITH ORDINALITY AS u(bundle, identifier, later, first_domain, first_domain_p, first_expiry,
                    first_expiry_p, last_domain, last_domain_p, last_expiry, last_expiry_p, n)
            ), judged AS (
                SELECT o.*, (a.bundle IS NULL OR a.domain_identifier IS DISTINCT FROM o.first_domain
                    OR a.expires_at IS DISTINCT FROM o.first_expiry) AS changed
                FROM offered o
                LEFT JOIN app_item a ON a.bundle = o.bundle AND a.unique_identifier = o.identifier
            ), written AS (
                INSERT INTO app_item (bundle, unique_identifier, domain_identifier, expires_at, last_seen)
                SELECT bundle, identifier, last_domain, last_expiry, \(now)::float8 FROM judged
                WHERE changed OR later > 0
                ORDER BY n
                ON CONFLICT (bundle, unique_identifier) DO UPDATE SET
                    domain_identifier = excluded.domain_identifier, expires_at = excluded.expires_at,
                    last_seen = excluded.last_seen
            )
            SELECT count(*) FROM judged WHERE changed
            """, logger: logger)
        let first = try rows.first?.decode(Int.self) ?? 0
        return first + upserts.reduce(0) { $0 + $1.laterChanges }
    }

    /// Offers `pairs` to `donation`; returns whether each was added, and each identity's donors before.
    /// The parts of one statement see the table as it was before it, so the count leaves the added out.
    private static func offerDonations(
        _ pairs: [DonationRun.Donation], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> (added: [Bool], priorDonors: [Data: Int]) {
        var identities: [ByteBuffer] = [], donors: [ByteBuffer] = [], bundles: [String] = []
        for pair in pairs {
            identities.append(ByteBuffer(bytes: pair.identity))
            donors.append(ByteBuffer(bytes: pair.donor))
            bundles.append(pair.content.bundle)
        }
        let rows = try await connection.rows(
            """
            WITH offered AS (
                SELECT * FROM unnest(\(identities)::bytea[], \(donors)::bytea[], \(bundles)::text[])
                    WITH ORDINALITY AS o(identity, donor, bundle, n)
            ), added AS (
                INSERT INTO donation (identity, donor, bundle)
                SELECT identity, donor, bundle FROM offered ORDER BY n
                ON CONFLICT DO NOTHING
                RETURNING identity, donor
            ), prior AS (
                SELECT identity, count(*) AS donors FROM donation
                WHERE identity IN (SELECT identity FROM offered)
                GROUP BY identity
            )
            SELECT o.n, a.identity IS NOT NULL, COALESCE(p.donors, 0)
            FROM offered o
            LEFT JOIN added a ON a.identity = o.identity AND a.donor = o.donor
            LEFT JOIN prior p ON p.identity = o.identity
            """, logger: logger)
        var added = [Bool](repeating: false, count: pairs.count)
        var priorDonors: [Data: Int] = [:]
        for row in rows {
            let (n, isAdded, prior) = try row.decode((Int, Bool, Int).self)
            guard n >= 1, n <= pairs.count else { continue }
            added[n - 1] = isAdded
            priorDonors[pairs[n - 1].identity] = prior
        }
        return (added, priorDonors)
    }
}
