/// What a publish did (`searchlight publish`), and the counts of its dedup report (SPEC §6).
package struct PublishSummary: Sendable, Hashable, Codable {
    /// Crawled pages considered.
    package var pages = 0
    /// Stored activities considered.
    package var activities = 0
    /// Donated searchable items considered.
    package var searchableItems = 0
    /// Clusters formed.
    package var clusters = 0
    /// Clusters published (public items after the publish).
    package var published = 0
    /// Members folded into another member's item.
    package var duplicatesMerged = 0
    /// Withheld clusters and never-stored records, by reason.
    package var withheld: [String: Int] = [:]
    /// Clusters rewritten because a member changed, appeared, expired or went stale.
    package var changedClusters = 0
    /// Clusters that no longer exist (their members were deleted or merged elsewhere).
    package var removedClusters = 0
    /// Clusters left as they were.
    package var unchangedClusters = 0
    /// Activity web pages handed to the crawler's pending frontier.
    package var pendingURLs = 0
    /// Pages among the rebuilt clusters whose stored item did not decode (each is logged): their clusters
    /// were built as if the page had no item, from the activities alone or withheld as `noTitle`. `nil`
    /// when there were none (and in summaries stored before it was counted).
    package var unreadablePageItems: Int?
    /// The engagement threshold applied.
    package var engagementThreshold = 0
    /// The expiry period applied, in days.
    package var expiryDays = 0.0
    /// When it ran (seconds since 1970).
    package var publishedAt = 0.0

    /// Creates an empty summary.
    package init() {}
}

extension PublishSummary {
    /// Takes the counts of the index as it now stands (unchanged clusters included), adding the clusters
    /// withheld to the records never stored.
    mutating func count(_ index: (published: Int, withheldClusters: [String: Int]), recordCounts: [String: Int]) {
        published = index.published
        withheld = recordCounts.merging(index.withheldClusters, uniquingKeysWith: +)
    }
}
