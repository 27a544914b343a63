import PlainText

extension DedupReport {
    /// The report as plain text for a terminal: the summary counts, the withheld counts by reason
    /// with their explanations, then the listed clusters (see ``listing(atMost:)``) with their
    /// members. Aligned columns, no colour; control and bidi characters from the data are shown as
    /// `\u{…}` so nothing in a record can move the cursor or restyle the terminal.
    ///
    /// - Parameter limits: How many clusters and members to list and how long a string may be.
    /// - Returns: The text, ending with a newline. Linear in the size of what is listed.
    package func renderedText(limits: ListingLimits = .standard) -> String {
        var renderer = TextRenderer(report: self, limits: limits)
        renderer.render()
        return renderer.output
    }
}

/// Writes ``DedupReport/renderedText(limits:)`` into one growing string.
private struct TextRenderer {
    let report: DedupReport
    let limits: DedupReport.ListingLimits
    var output = ""

    /// The column where member details start: room for the longest source name, `searchableItem`.
    private static let sourceWidth = 16

    private func shown(_ raw: String) -> String {
        DisplayText.sanitized(raw, limit: limits.fieldLength).text
    }

    mutating func render() {
        output += "Searchlight dedup report\n"
        if let generatedAt = report.generatedAt { line("Generated at:", shown(generatedAt), width: 22) }
        if let threshold = report.engagementThreshold { line("Engagement threshold:", String(threshold), width: 22) }
        renderSummary()
        renderWithheld()
        renderClusters()
    }

    private mutating func line(_ label: String, _ value: String, width: Int, indent: String = "") {
        output += indent
        output += label
        output.appendPadding(max(1, width - label.count))
        output += value
        output += "\n"
    }

    private mutating func renderSummary() {
        output += "\nSummary\n"
        let figures = report.summaryFigures
        let labelWidth = (figures.map(\.label.count).max() ?? 0) + 2
        let valueWidth = figures.map { String($0.value).count }.max() ?? 0
        for figure in figures {
            let value = String(figure.value)
            output += "  "
            output += figure.label
            output.appendPadding(labelWidth - figure.label.count + valueWidth - value.count)
            output += value
            output += "\n"
        }
    }

    private mutating func renderWithheld() {
        output += "\nWithheld by reason\n"
        let rows = report.withheldRows.map {
            (reason: shown($0.reason), count: String($0.count), explanation: $0.explanation)
        }
        if rows.isEmpty {
            output += "  (nothing withheld)\n"
            return
        }
        let reasonWidth = rows.map(\.reason.count).max() ?? 0
        let countWidth = rows.map(\.count.count).max() ?? 0
        for row in rows {
            output += "  "
            output += row.reason
            output.appendPadding(reasonWidth - row.reason.count + 2 + countWidth - row.count.count)
            output += row.count
            if let explanation = row.explanation {
                output += "  "
                output += explanation
            }
            output += "\n"
        }
    }

    private mutating func renderClusters() {
        let listing = report.listing(atMost: limits.clusters)
        output += "\nClusters: \(listing.clusters.count) of \(report.totalClusters) listed"
        if listing.omittedCount > 0 {
            output += "; \(listing.omittedCount) not listed (withheld and merged clusters are listed first)"
        }
        output += "\n"
        for (index, cluster) in listing.clusters.enumerated() {
            renderCluster(cluster, number: index + 1)
        }
    }

    private mutating func renderCluster(_ cluster: DedupReport.Cluster, number: Int) {
        let marker = "\(number). "
        let indent = String(repeating: " ", count: 2 + marker.count)
        output += "\n  "
        output += marker
        output += cluster.published ? "PUBLISHED  " : "WITHHELD   "
        output += shown(cluster.id)
        output += "\n"
        if let uniqueIdentifier = cluster.uniqueIdentifier {
            line("unique identifier:", shown(uniqueIdentifier), width: 20, indent: indent)
        }
        if !cluster.published {
            var reason = shown(cluster.reason)
            if let explanation = cluster.reasonExplanation { reason += " — \(explanation)" }
            line("reason:", reason, width: 20, indent: indent)
        }
        if !cluster.matchedBy.isEmpty {
            line("matched by:", cluster.matchedBy.map(shown).joined(separator: ", "), width: 20, indent: indent)
        }
        output += indent
        output += "members (\(cluster.members.count)):\n"
        let memberLimit = max(0, limits.membersPerCluster)
        for member in cluster.members.prefix(memberLimit) {
            renderMember(member, indent: indent + "  ")
        }
        if cluster.members.count > memberLimit {
            output += indent
            output += "  … \(cluster.members.count - memberLimit) more members not listed\n"
        }
    }

    private mutating func renderMember(_ member: DedupReport.Member, indent: String) {
        line(shown(member.source), shown(member.id), width: Self.sourceWidth, indent: indent)
        let detailIndent = indent + String(repeating: " ", count: Self.sourceWidth)
        if let url = member.url, url != member.id { line("url:", shown(url), width: 8, indent: detailIndent) }
        if let bundle = member.bundleIdentifier { line("bundle:", shown(bundle), width: 8, indent: detailIndent) }
        if let status = member.status { line("status:", shown(status), width: 8, indent: detailIndent) }
    }
}
