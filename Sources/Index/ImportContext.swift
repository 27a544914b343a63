import Bridge
import Donations
import Foundation
import GRDB

/// Applies one donation record to the store inside an import transaction (SPEC §4).
struct ImportContext: Sendable {
    let hasher: DonationHasher
    let threshold: Int
    let now: Double

    /// What a record comes to before the store is read: hashes, the row an activity would store, the
    /// parsed dates. Pure (no store), so it runs on the thread that reads the file, while the previous
    /// batch is written.
    enum Prepared: Sendable {
        /// A record that may never be published: counted once, as a hash, its content not stored.
        case withheld(hash: Data, bundle: String, reason: WithholdReason)
        /// A donation of an identified activity, and the content stored once enough donors gave it.
        case activity(identityHash: Data, donorHash: Data, row: ActivityRow)
        case searchableItem(SearchableItemRecord, expiresAt: Double?)
        case delete(DeletionRecord)
    }

    func prepare(_ record: DonationRecord) -> Prepared {
        switch record {
        case .userActivity(let activity): return prepare(activity)
        case .searchableItem(let item):
            return .searchableItem(
                item, expiresAt: item.expirationDate.flatMap(DonationDates.parse)?.timeIntervalSince1970)
        case .delete(let deletion): return .delete(deletion)
        }
    }

    private func prepare(_ activity: UserActivityRecord) -> Prepared {
        let identity = ActivityIdentity(activity)
        let donorText = "donor\u{0}\(activity.bundleIdentifier)\u{0}\(activity.donor)"
        let reason = withholdReason(activity, identity: identity)
        guard reason == nil, let identity else {
            // Counted as a hash, so a re-import counts once.
            let recordText =
                (identity?.text ?? "none\u{0}\(activity.bundleIdentifier)\u{0}\(activity.activityType)") + "\u{0}"
                + donorText
            return .withheld(
                hash: hasher.hash(recordText), bundle: activity.bundleIdentifier,
                reason: reason ?? .noWebpageURLOrUserInfo)
        }
        return .activity(
            identityHash: hasher.hash(identity.text), donorHash: hasher.hash(donorText),
            row: ActivityRow(activity, identity: identity))
    }

    /// Applies a prepared record in the import's transaction.
    func apply(_ record: Prepared, to counts: inout ImportSummary, in db: Database) throws {
        switch record {
        case .withheld(let hash, let bundle, let reason):
            try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO withheld_record (hash, bundle, reason) VALUES (?, ?, ?)"
            ).execute(arguments: [hash, bundle, reason.rawValue])
            counts.withheld[reason.rawValue, default: 0] += 1
        case .activity(let identityHash, let donorHash, var row):
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO donation (identity, donor, bundle) VALUES (?, ?, ?)")
                .execute(arguments: [identityHash, donorHash, row.bundle])
            if db.changesCount > 0 { counts.newDonations += 1 }
            row.donors =
                try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM donation WHERE identity = ?"),
                    arguments: [identityHash]) ?? 0
            guard row.donors >= threshold else {
                counts.belowThreshold += 1
                return
            }
            if try row.upsert(identityHash: identityHash, now: now, in: db) {
                counts.storedActivities += 1
                try row.queueWebpageForCrawl(now: now, in: db)
            }
        case .searchableItem(let item, let expiresAt):
            try apply(item, expiresAt: expiresAt, to: &counts, in: db)
        case .delete(let deletion):
            try DeletionRules.apply(deletion, to: &counts, in: db)
        }
    }

    private func withholdReason(_ activity: UserActivityRecord, identity: ActivityIdentity?) -> WithholdReason? {
        if activity.isEligibleForPublicIndexing != true { return .notEligibleForPublicIndexing }
        if identity == nil || (activity.webpageURL == nil && (activity.requiredUserInfoKeys ?? []).isEmpty) {
            return .noWebpageURLOrUserInfo
        }
        if let text = activity.expirationDate, let date = DonationDates.parse(text), date.timeIntervalSince1970 <= now {
            return .expired
        }
        return nil
    }

    private func apply(
        _ item: SearchableItemRecord, expiresAt: Double?, to counts: inout ImportSummary, in db: Database
    )
        throws
    {
        try db.cachedStatement(
            sql: """
                INSERT INTO app_item (bundle, unique_identifier, domain_identifier, expires_at, last_seen)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (bundle, unique_identifier) DO UPDATE SET
                    domain_identifier = excluded.domain_identifier, expires_at = excluded.expires_at,
                    last_seen = excluded.last_seen
                WHERE domain_identifier IS NOT excluded.domain_identifier OR expires_at IS NOT excluded.expires_at
                """
        ).execute(arguments: [item.bundleIdentifier, item.uniqueIdentifier, item.domainIdentifier, expiresAt, now])
        if db.changesCount > 0 { counts.searchableItems += 1 }
    }

    /// Removes the stored content of activities below `threshold` (after it was raised): below it
    /// only hashes may be kept.
    static func purgeBelowThreshold(_ threshold: Int, in db: Database) throws {
        try db.execute(sql: "DELETE FROM activity WHERE donors < ?", arguments: [threshold])
    }
}
