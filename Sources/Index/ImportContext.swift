import Bridge
import Donations
import Foundation
import Store

/// Turns donation records into what the store writes (SPEC §4): hashes in place of what identifies a
/// donor or a withheld record, the row an activity would store, the parsed dates.
struct ImportContext: Sendable {
    let hasher: DonationHasher
    let threshold: Int
    let now: Double

    /// What `record` comes to before the store is read. Pure (no store), so it runs on the thread that
    /// reads the file, while the previous batch is written.
    func prepare(_ record: DonationRecord) -> DonationWrite {
        switch record {
        case .userActivity(let activity): return prepare(activity)
        case .searchableItem(let item):
            return .searchableItem(
                DonatedItem(
                    bundle: item.bundleIdentifier, uniqueIdentifier: item.uniqueIdentifier,
                    domainIdentifier: item.domainIdentifier,
                    expiresAt: item.expirationDate.flatMap(DonationDates.parse)?.timeIntervalSince1970))
        case .delete(let deletion): return .delete(ItemDeletion(deletion))
        }
    }

    private func prepare(_ activity: UserActivityRecord) -> DonationWrite {
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
                reason: (reason ?? .noWebpageURLOrUserInfo).rawValue)
        }
        return .activity(
            identity: hasher.hash(identity.text), donor: hasher.hash(donorText),
            content: DonatedActivity(activity, identity: identity))
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
}
