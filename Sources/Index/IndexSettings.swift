import Store

/// The store-wide settings of the bridge (SPEC §7): the engagement threshold and the expiry
/// period are recorded in the store when given and apply from then on, because below the threshold
/// only hashes are kept (lowering it later cannot bring back content that was never stored).
package struct IndexSettings: Sendable, Hashable {
    /// The default number of distinct donors an activity needs (SPEC §4).
    package static let defaultEngagementThreshold = 3
    /// The default number of days an item stays public after it was last seen.
    package static let defaultExpiryDays = 30.0

    /// Distinct donors an activity needs before its content is stored and it may be published.
    package var engagementThreshold: Int
    /// Days an item stays public after it was last seen (crawled or donated).
    package var expiryDays: Double

    /// Creates settings.
    package init(
        engagementThreshold: Int = Self.defaultEngagementThreshold, expiryDays: Double = Self.defaultExpiryDays
    ) {
        self.engagementThreshold = engagementThreshold
        self.expiryDays = expiryDays
    }

    /// The settings `stored`, defaults for what was never set.
    init(_ stored: DonationSettings) {
        self.init(
            engagementThreshold: stored.engagementThreshold ?? Self.defaultEngagementThreshold,
            expiryDays: stored.expiryDays ?? Self.defaultExpiryDays)
    }
}
