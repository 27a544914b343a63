/// The dedup report of one publish (SPEC §6 `report --json`): every cluster, its members, and
/// why it was or was not published. Renderers: text, Markdown and a self-contained HTML page.
package struct DedupReport: Sendable, Hashable, Codable {
    /// Counts over the whole publish.
    package var summary: Summary
    /// Every cluster, in a stable order (published first, then by key).
    package var clusters: [Cluster]
    /// When the publish ran (ISO 8601), if known.
    package var generatedAt: String?
    /// The engagement threshold the publish applied.
    package var engagementThreshold: Int?

    /// Creates a report.
    package init(summary: Summary, clusters: [Cluster], generatedAt: String? = nil, engagementThreshold: Int? = nil) {
        self.summary = summary
        self.clusters = clusters
        self.generatedAt = generatedAt
        self.engagementThreshold = engagementThreshold
    }

    /// Counts over the whole publish.
    package struct Summary: Sendable, Hashable, Codable {
        /// Crawled pages considered.
        package var pages: Int
        /// Stored activities considered (those at or above the engagement threshold).
        package var activities: Int
        /// Donated searchable items considered.
        package var searchableItems: Int
        /// Clusters formed.
        package var clusters: Int
        /// Clusters published (one public item each).
        package var published: Int
        /// Members folded into another member's published item (members of published clusters
        /// beyond the first).
        package var duplicatesMerged: Int
        /// Withheld clusters and records by reason (records that were never stored, such as those
        /// below the engagement threshold, are counted here too).
        package var withheld: [String: Int]

        /// Creates a summary.
        package init(
            pages: Int, activities: Int, searchableItems: Int, clusters: Int, published: Int,
            duplicatesMerged: Int, withheld: [String: Int]
        ) {
            self.pages = pages
            self.activities = activities
            self.searchableItems = searchableItems
            self.clusters = clusters
            self.published = published
            self.duplicatesMerged = duplicatesMerged
            self.withheld = withheld
        }
    }

    /// One cluster: the records found to be the same thing.
    package struct Cluster: Sendable, Hashable, Codable {
        /// A stable id (the smallest member key).
        package var id: String
        /// Whether the cluster has a public item.
        package var published: Bool
        /// `published`, or the reason it was withheld (see ``WithholdReason``).
        package var reason: String
        /// How members were joined: `webpageURL`, `redirect`, `canonical`, `relatedUniqueIdentifier`.
        package var matchedBy: [String]
        /// The records in the cluster.
        package var members: [Member]
        /// The published item's `uniqueIdentifier`, when published.
        package var uniqueIdentifier: String?

        /// Creates a cluster entry.
        package init(
            id: String, published: Bool, reason: String, matchedBy: [String], members: [Member],
            uniqueIdentifier: String? = nil
        ) {
            self.id = id
            self.published = published
            self.reason = reason
            self.matchedBy = matchedBy
            self.members = members
            self.uniqueIdentifier = uniqueIdentifier
        }
    }

    /// One record of a cluster.
    package struct Member: Sendable, Hashable, Codable {
        /// `web`, `activity` or `searchableItem`.
        package var source: String
        /// The record's id: the page URL, the activity's identifier, the item's `uniqueIdentifier`.
        package var id: String
        /// The record's URL (the page, or the activity's `webpageURL`).
        package var url: String?
        /// The app, for donated records.
        package var bundleIdentifier: String?
        /// Whether this member is public on its own terms, or why not (`public`, `noindex`, …).
        package var status: String?

        /// Creates a member entry.
        package init(
            source: String, id: String, url: String? = nil, bundleIdentifier: String? = nil, status: String? = nil
        ) {
            self.source = source
            self.id = id
            self.url = url
            self.bundleIdentifier = bundleIdentifier
            self.status = status
        }
    }
}
