import PlainText

extension DedupReport {
    /// The report as GitHub-flavoured Markdown: a summary table, a table of withheld counts by
    /// reason with explanations, then a section per listed cluster (see ``listing(atMost:)``)
    /// with a members table.
    ///
    /// Every string from the data is escaped so it renders as the literal text it is: Markdown's
    /// active characters (`|`, backticks, `<`, `*`, `_`, `[`, `&`, …) are backslash-escaped, and
    /// line breaks and other control or bidi characters are shown as `\u{…}`, so no record can
    /// break a table, inject a link, raw HTML or formatting.
    ///
    /// - Parameter limits: How many clusters and members to list and how long a string may be.
    /// - Returns: The Markdown, ending with a newline. Linear in the size of what is listed.
    package func renderedMarkdown(limits: ListingLimits = .standard) -> String {
        var renderer = MarkdownRenderer(report: self, limits: limits)
        renderer.render()
        return renderer.output
    }
}

/// Writes ``DedupReport/renderedMarkdown(limits:)`` into one growing string.
private struct MarkdownRenderer {
    let report: DedupReport
    let limits: DedupReport.ListingLimits
    var output = ""

    /// Appends untrusted text, sanitized and escaped for inline Markdown (also valid in a table cell).
    private mutating func append(escaping raw: String) {
        let text = DisplayText.sanitized(raw, limit: limits.fieldLength).text
        for scalar in text.unicodeScalars {
            // CommonMark lets any ASCII punctuation be backslash-escaped; these are the ones that
            // can start emphasis, code, links, autolinks, raw HTML, entities, strikethrough, math,
            // headings' closing sequences, or end a GFM table cell.
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "&", "|", "~", "!", "#", "$":
                output += "\\"
            default: break
            }
            output.unicodeScalars.append(scalar)
        }
    }

    mutating func render() {
        output += "# Searchlight dedup report\n"
        if let generatedAt = report.generatedAt {
            output += "\nGenerated at "
            append(escaping: generatedAt)
            output += report.engagementThreshold.map { " · engagement threshold \($0)\n" } ?? "\n"
        } else if let threshold = report.engagementThreshold {
            output += "\nEngagement threshold \(threshold)\n"
        }
        renderSummary()
        renderWithheld()
        renderClusters()
    }

    private mutating func renderSummary() {
        output += "\n## Summary\n\n| What | Count |\n| :--- | ---: |\n"
        for figure in report.summaryFigures {
            output += "| \(figure.label) | \(figure.value) |\n"
        }
    }

    private mutating func renderWithheld() {
        output += "\n## Withheld by reason\n\n"
        let rows = report.withheldRows
        if rows.isEmpty {
            output += "Nothing was withheld.\n"
            return
        }
        output += "| Reason | Count | Explanation |\n| :--- | ---: | :--- |\n"
        for row in rows {
            output += "| "
            append(escaping: row.reason)
            output += " | \(row.count) | "
            output += row.explanation ?? ""
            output += " |\n"
        }
    }

    private mutating func renderClusters() {
        let listing = report.listing(atMost: limits.clusters)
        output += "\n## Clusters\n\n\(listing.clusters.count) of \(report.totalClusters) clusters listed"
        if listing.omittedCount > 0 {
            output += "; \(listing.omittedCount) not listed (withheld and merged clusters are listed first)"
        }
        output += ".\n"
        for (index, cluster) in listing.clusters.enumerated() {
            renderCluster(cluster, number: index + 1)
        }
    }

    private mutating func renderCluster(_ cluster: DedupReport.Cluster, number: Int) {
        output += "\n### \(number). \(cluster.published ? "Published" : "Withheld"): "
        append(escaping: cluster.id)
        output += "\n\n"
        if let uniqueIdentifier = cluster.uniqueIdentifier {
            output += "- Unique identifier: "
            append(escaping: uniqueIdentifier)
            output += "\n"
        }
        if !cluster.published {
            output += "- Reason: "
            append(escaping: cluster.reason)
            if let explanation = cluster.reasonExplanation { output += " — \(explanation)" }
            output += "\n"
        }
        output += "- Matched by: "
        for (index, key) in cluster.matchedBy.enumerated() {
            if index > 0 { output += ", " }
            append(escaping: key)
        }
        output += cluster.matchedBy.isEmpty ? "(nothing)\n" : "\n"
        renderMembers(cluster.members)
    }

    private mutating func renderMembers(_ members: [DedupReport.Member]) {
        output += "\n| Source | ID | URL | Bundle | Status |\n| :--- | :--- | :--- | :--- | :--- |\n"
        let memberLimit = max(0, limits.membersPerCluster)
        for member in members.prefix(memberLimit) {
            for field in [member.source, member.id, member.url, member.bundleIdentifier, member.status] {
                output += "| "
                if let field { append(escaping: field) }
                output += " "
            }
            output += "|\n"
        }
        if members.count > memberLimit {
            output += "\n_\(members.count - memberLimit) more members not listed._\n"
        }
    }
}
