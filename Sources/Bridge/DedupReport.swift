/// The dedup report of one publish (SPEC §6 `report --json`): every cluster, its members, and
/// why it was or was not published. Renderers: text, Markdown and a self-contained HTML page.
public struct DedupReport: Sendable, Hashable, Codable {
    /// Counts over the whole publish.
    public var summary: Summary
    /// Every cluster, in a stable order (published first, then by key).
    public var clusters: [Cluster]
    /// When the publish ran (ISO 8601), if known.
    public var generatedAt: String?
    /// The engagement threshold the publish applied.
    public var engagementThreshold: Int?

    /// Creates a report.
    public init(summary: Summary, clusters: [Cluster], generatedAt: String? = nil, engagementThreshold: Int? = nil) {
        self.summary = summary
        self.clusters = clusters
        self.generatedAt = generatedAt
        self.engagementThreshold = engagementThreshold
    }

    /// Counts over the whole publish.
    public struct Summary: Sendable, Hashable, Codable {
        /// Crawled pages considered.
        public var pages: Int
        /// Stored activities considered (those at or above the engagement threshold).
        public var activities: Int
        /// Donated searchable items considered.
        public var searchableItems: Int
        /// Clusters formed.
        public var clusters: Int
        /// Clusters published (one public item each).
        public var published: Int
        /// Members folded into another member's published item (members of published clusters
        /// beyond the first).
        public var duplicatesMerged: Int
        /// Withheld clusters and records by reason (records that were never stored, such as those
        /// below the engagement threshold, are counted here too).
        public var withheld: [String: Int]

        /// Creates a summary.
        public init(
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
    public struct Cluster: Sendable, Hashable, Codable {
        /// A stable id (the smallest member key).
        public var id: String
        /// Whether the cluster has a public item.
        public var published: Bool
        /// `published`, or the reason it was withheld (see ``WithholdReason``).
        public var reason: String
        /// How members were joined: `webpageURL`, `redirect`, `canonical`, `relatedUniqueIdentifier`.
        public var matchedBy: [String]
        /// The records in the cluster.
        public var members: [Member]
        /// The published item's `uniqueIdentifier`, when published.
        public var uniqueIdentifier: String?

        /// Creates a cluster entry.
        public init(
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
    public struct Member: Sendable, Hashable, Codable {
        /// `web`, `activity` or `searchableItem`.
        public var source: String
        /// The record's id: the page URL, the activity's identifier, the item's `uniqueIdentifier`.
        public var id: String
        /// The record's URL (the page, or the activity's `webpageURL`).
        public var url: String?
        /// The app, for donated records.
        public var bundleIdentifier: String?
        /// Whether this member is public on its own terms, or why not (`public`, `noindex`, …).
        public var status: String?

        /// Creates a member entry.
        public init(
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
