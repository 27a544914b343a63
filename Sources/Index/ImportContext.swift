import Bridge
import Donations
import Foundation
import GRDB

/// Applies one donation record to the store inside an import transaction (SPEC §4).
struct ImportContext: Sendable {
    let hasher: DonationHasher
    let threshold: Int
    let now: Double

    func apply(_ record: DonationRecord, to counts: inout ImportSummary, in db: Database) throws {
        switch record {
        case .userActivity(let activity): try apply(activity, to: &counts, in: db)
        case .searchableItem(let item): try apply(item, to: &counts, in: db)
        case .delete(let deletion): try DeletionRules.apply(deletion, to: &counts, in: db)
        }
    }

    private func apply(_ activity: UserActivityRecord, to counts: inout ImportSummary, in db: Database) throws {
        let identity = ActivityIdentity(activity)
        let donorText = "donor\u{0}\(activity.bundleIdentifier)\u{0}\(activity.donor)"
        // Records that may never be published are counted (as a hash, so a re-import counts once)
        // and their content is not stored at all.
        if let reason = withholdReason(activity, identity: identity) {
            let recordText =
                (identity?.text ?? "none\u{0}\(activity.bundleIdentifier)\u{0}\(activity.activityType)") + "\u{0}"
                + donorText
            try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO withheld_record (hash, bundle, reason) VALUES (?, ?, ?)"
            ).execute(arguments: [hasher.hash(recordText), activity.bundleIdentifier, reason.rawValue])
            counts.withheld[reason.rawValue, default: 0] += 1
            return
        }
        guard let identity else { return }
        let identityHash = hasher.hash(identity.text)
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO donation (identity, donor, bundle) VALUES (?, ?, ?)")
            .execute(arguments: [identityHash, hasher.hash(donorText), activity.bundleIdentifier])
        if db.changesCount > 0 { counts.newDonations += 1 }
        let donors =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM donation WHERE identity = ?"),
                arguments: [identityHash]) ?? 0
        guard donors >= threshold else {
            counts.belowThreshold += 1
            return
        }
        if try ActivityRow(activity, identity: identity, donors: donors).upsert(
            identityHash: identityHash, now: now, in: db)
        {
            counts.storedActivities += 1
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

    private func apply(_ item: SearchableItemRecord, to counts: inout ImportSummary, in db: Database) throws {
        let expiresAt = item.expirationDate.flatMap(DonationDates.parse)?.timeIntervalSince1970
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
