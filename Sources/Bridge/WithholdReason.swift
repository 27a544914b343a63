/// Why a record or a cluster is not in the public index (SPEC §4). The raw values are the keys of
/// the report's `summary.withheld` and each cluster's `reason`.
package enum WithholdReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// A donated activity with `isEligibleForPublicIndexing` not true: counted, never stored.
    case notEligibleForPublicIndexing
    /// Fewer than K distinct donors donated the activity: only salted hashes are stored.
    case belowEngagementThreshold
    /// An activity with neither a `webpageURL` nor `requiredUserInfoKeys`: nothing could open it.
    case noWebpageURLOrUserInfo
    /// The record's `expirationDate` has passed.
    case expired
    /// Nothing in the cluster was seen (crawled or donated) within the expiry period.
    case stale
    /// The activity's `webpageURL` was never crawled: it waits in the crawler's pending frontier.
    case awaitingCrawl
    /// The activity's `webpageURL` is one robots.txt does not let the crawler fetch: it never will be.
    case robotsDisallowed
    /// The page was crawled but is not public: not 2xx, not HTML, `noindex`, gone, or no title.
    case pageNotPublic
    /// The activity's `webpageURL` is on a host whose apple-app-site-association does not name the app (in
    /// `applinks`, `activitycontinuation` or `webcredentials`): the activity may not speak for that page, and
    /// with no `requiredUserInfoKeys` it has nothing of its own to open.
    case appNotAssociated
    /// The activity names a `relatedUniqueIdentifier` whose searchable item does not exist or was deleted.
    case relatedItemMissing
    /// Only donated searchable items: on-device content, never public on its own.
    case searchableItemOnly
    /// Nothing public in the cluster gives the item a title.
    case noTitle

    /// A sentence for people reading the report.
    package var explanation: String {
        switch self {
        case .notEligibleForPublicIndexing: "the app did not mark it eligible for public indexing"
        case .belowEngagementThreshold: "fewer distinct donors than the engagement threshold; only hashes are kept"
        case .noWebpageURLOrUserInfo: "neither a webpageURL nor requiredUserInfoKeys"
        case .expired: "its expirationDate has passed"
        case .stale: "not seen within the expiry period"
        case .awaitingCrawl: "its webpageURL has not been crawled yet"
        case .robotsDisallowed: "robots.txt disallows crawling its webpageURL, so it can never be verified"
        case .pageNotPublic: "the web page is not public (status, content type, noindex or no title)"
        case .appNotAssociated:
            "the web page's host does not name the app in its apple-app-site-association, so the app cannot speak for it"
        case .relatedItemMissing: "its relatedUniqueIdentifier names no existing searchable item"
        case .searchableItemOnly: "searchable items are on-device content, never public on their own"
        case .noTitle: "nothing public in the cluster gives it a title"
        }
    }
}
