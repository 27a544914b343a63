/// What a publish did (`searchlight publish`), and the counts of its dedup report (SPEC §6).
public struct PublishSummary: Sendable, Hashable, Codable {
    /// Crawled pages considered.
    public var pages = 0
    /// Stored activities considered.
    public var activities = 0
    /// Donated searchable items considered.
    public var searchableItems = 0
    /// Clusters formed.
    public var clusters = 0
    /// Clusters published (public items after the publish).
    public var published = 0
    /// Members folded into another member's item.
    public var duplicatesMerged = 0
    /// Withheld clusters and never-stored records, by reason.
    public var withheld: [String: Int] = [:]
    /// Clusters rewritten because a member changed, appeared, expired or went stale.
    public var changedClusters = 0
    /// Clusters that no longer exist (their members were deleted or merged elsewhere).
    public var removedClusters = 0
    /// Clusters left as they were.
    public var unchangedClusters = 0
    /// Activity web pages handed to the crawler's pending frontier.
    public var pendingURLs = 0
    /// Pages among the rebuilt clusters whose stored item did not decode (each is logged): their clusters
    /// were built as if the page had no item, from the activities alone or withheld as `noTitle`. `nil`
    /// when there were none (and in summaries stored before it was counted).
    public var unreadablePageItems: Int?
    /// The engagement threshold applied.
    public var engagementThreshold = 0
    /// The expiry period applied, in days.
    public var expiryDays = 0.0
    /// When it ran (seconds since 1970).
    public var publishedAt = 0.0

    /// Creates an empty summary.
    public init() {}
}

extension PublishSummary {
    /// Takes the counts of the index as it now stands (unchanged clusters included), adding the clusters
    /// withheld to the records never stored.
    mutating func count(_ index: (published: Int, withheldClusters: [String: Int]), recordCounts: [String: Int]) {
        published = index.published
        withheld = recordCounts.merging(index.withheldClusters, uniquingKeysWith: +)
    }
}
