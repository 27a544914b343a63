extension DedupReport {
    /// How much of a report the human-readable renderings (text, Markdown, HTML) show. The JSON
    /// form is always complete; these bounds keep a page for a million clusters readable and small.
    package struct ListingLimits: Sendable, Hashable {
        /// The most clusters listed; the rest are counted, not shown. Negative values count as 0.
        package var clusters: Int
        /// The most members listed per cluster; the rest are counted, not shown. Negative values count as 0.
        package var membersPerCluster: Int
        /// The most Unicode scalars shown of one string (an id, a URL); longer ones are cut and
        /// marked with how much was left out. Values below 1 count as 1.
        package var fieldLength: Int

        /// Creates limits; the defaults list a thousand clusters of up to a hundred members each.
        package init(clusters: Int = 1000, membersPerCluster: Int = 100, fieldLength: Int = 2048) {
            self.clusters = clusters
            self.membersPerCluster = membersPerCluster
            self.fieldLength = fieldLength
        }

        /// A thousand clusters, a hundred members each, 2048 scalars per string.
        package static let standard = ListingLimits()
    }

    /// The clusters a human-readable rendering lists, most interesting first.
    package struct Listing: Sendable, Hashable {
        /// The listed clusters: withheld ones, then published ones that merged more than one
        /// member, then single-member published ones; within each group, in the report's order.
        package var clusters: [Cluster]
        /// How many of the report's clusters are not listed.
        package var omittedCount: Int
    }

    /// Chooses the clusters to list under `limit` in one pass over the report, keeping at most
    /// `limit` candidates per group, so a huge report costs linear time and bounded memory.
    ///
    /// - Parameter limit: The most clusters to list; negative values count as 0.
    /// - Returns: The listed clusters in a deterministic order and how many were left out.
    package func listing(atMost limit: Int) -> Listing {
        let limit = max(0, limit)
        var groups: [[Cluster]] = [[], [], []]
        for cluster in clusters {
            let group = cluster.listingGroup
            if groups[group].count < limit { groups[group].append(cluster) }
            // The first group alone fills the listing: nothing later can enter it.
            if groups[0].count == limit { break }
        }
        let listed = Array(groups.joined().prefix(limit))
        return Listing(clusters: listed, omittedCount: max(0, totalClusters - listed.count))
    }

    /// All clusters of the publish: ``clusters`` may hold only the ones chosen for listing (a store
    /// reads at most a listing's worth), while ``Summary/clusters`` counts them all.
    package var totalClusters: Int { Swift.max(clusters.count, summary.clusters) }

    /// One row of the "withheld by reason" table.
    struct WithheldRow {
        var reason: String
        var count: Int
        /// The sentence from ``WithholdReason/explanation``, or nil for a key this version does not know.
        var explanation: String?
    }

    /// The withheld counts, largest first, ties by reason key, so every rendering is deterministic.
    var withheldRows: [WithheldRow] {
        summary.withheld
            .map {
                WithheldRow(reason: $0.key, count: $0.value, explanation: WithholdReason(rawValue: $0.key)?.explanation)
            }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason }
    }

    /// The summary counts with their labels, in the order every rendering shows them.
    var summaryFigures: [(label: String, value: Int)] {
        // Saturating: a hand-written report with huge counts must not trap.
        let withheldTotal = summary.withheld.values.reduce(0) { total, count in
            let (sum, overflow) = total.addingReportingOverflow(count)
            return overflow ? Int.max : sum
        }
        return [
            ("Pages", summary.pages), ("Activities", summary.activities),
            ("Searchable items", summary.searchableItems), ("Clusters", summary.clusters),
            ("Published", summary.published), ("Duplicates merged", summary.duplicatesMerged),
            ("Withheld", withheldTotal),
        ]
    }
}

extension DedupReport.Cluster {
    /// 0 for withheld, 1 for published with several members, 2 for single-member published.
    var listingGroup: Int {
        if !published { return 0 }
        return members.count > 1 ? 1 : 2
    }

    /// The reason's explanation when the cluster is withheld for a known reason.
    var reasonExplanation: String? {
        published ? nil : WithholdReason(rawValue: reason)?.explanation
    }
}
