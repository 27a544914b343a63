import Donations
import Foundation
import Store

/// What of a donated activity the store keeps once it reached the engagement threshold: the fields a
/// published item may show (SPEC §4 precedence within the record: `contentAttributeSet`, then the activity
/// itself), and of `userInfo` only the required keys (the parser already dropped the rest).
extension DonatedActivity {
    init(_ activity: UserActivityRecord, identity: ActivityIdentity) {
        self.init(bundle: activity.bundleIdentifier, activityType: activity.activityType)
        let attributes = activity.contentAttributeSet
        webpageURL = activity.webpageURL
        urlKey = identity.urlKey
        persistentIdentifier = activity.persistentIdentifier
        relatedID = attributes?.relatedUniqueIdentifier
        weakRelatedID = attributes?.weakRelatedUniqueIdentifier
        domainIdentifier = attributes?.domainIdentifier
        title = Self.nonEmpty(attributes?.title) ?? Self.nonEmpty(activity.title)
        description = Self.nonEmpty(attributes?.contentDescription)
        let words = (attributes?.keywords).flatMap { $0.isEmpty ? nil : $0 } ?? activity.keywords ?? []
        // Newline-separated: a keyword may hold spaces, never a newline (they are single-line strings).
        keywords =
            words.isEmpty
            ? nil
            : words.map { $0.contains("\n") ? $0.replacingOccurrences(of: "\n", with: " ") : $0 }.joined(
                separator: "\n")
        thumbnailURL = attributes?.thumbnailURL
        rating = attributes?.rating
        ratingCount = attributes?.ratingCount
        userInfo = (activity.requiredUserInfoKeys ?? []).isEmpty ? nil : ActivityIdentity.userInfoText(activity)
        expiresAt = activity.expirationDate.flatMap(DonationDates.parse)?.timeIntervalSince1970
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
