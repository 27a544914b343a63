import PlainText

extension DedupReport {
    /// The report as one self-contained HTML5 page: a header with when it was generated and the
    /// engagement threshold, summary cards, the withheld counts by reason with explanations, and
    /// the listed clusters (see ``listing(atMost:)``), each with a published/withheld badge, its
    /// reason, how it was matched and a members table.
    ///
    /// The page is safe to open whatever the data holds: every string from the data is
    /// HTML-escaped (text and attributes); URLs are shown as text and become links only when they
    /// are `http:`/`https:` and shown unaltered; the page has no script, loads nothing (inline CSS
    /// only) and says so in a Content-Security-Policy, so it works offline and prints sensibly.
    ///
    /// - Parameter limits: How many clusters and members to list and how long a string may be.
    /// - Returns: The page, UTF-8 (`<meta charset="utf-8">`). Linear in the size of what is listed.
    package func renderedHTML(limits: ListingLimits = .standard) -> String {
        var renderer = HTMLRenderer(report: self, limits: limits)
        renderer.render()
        return renderer.output
    }
}

/// Writes ``DedupReport/renderedHTML(limits:)`` into one growing string.
private struct HTMLRenderer {
    let report: DedupReport
    let limits: DedupReport.ListingLimits
    var output = ""

    /// Appends text escaped for HTML content and for double- or single-quoted attribute values.
    private mutating func append(escaped text: String) {
        HTMLText.append(text, to: &output)
    }

    /// Appends untrusted text, sanitized (controls and bidi characters made visible, cut if too long), escaped.
    private mutating func append(untrusted raw: String) {
        append(escaped: DisplayText.sanitized(raw, limit: limits.fieldLength).text)
    }

    /// Appends a URL as text, inside a link only when it is an unaltered `http:`/`https:` URL.
    private mutating func append(url raw: String) {
        let shown = DisplayText.sanitized(raw, limit: limits.fieldLength)
        guard !shown.isAltered, DisplayText.isLinkable(raw) else {
            append(escaped: shown.text)
            return
        }
        output += "<a href=\""
        append(escaped: raw)
        output += "\" rel=\"noopener noreferrer nofollow\">"
        append(escaped: shown.text)
        output += "</a>"
    }

    mutating func render() {
        output += """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" \
            content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Searchlight dedup report</title>
            <style>

            """
        output += DedupReport.htmlStyleSheet
        output += "</style>\n</head>\n<body>\n<header>\n<h1>Searchlight dedup report</h1>\n"
        renderMeta()
        output += "</header>\n<main>\n"
        renderSummary()
        renderWithheld()
        renderClusters()
        output += "</main>\n</body>\n</html>\n"
    }

    private mutating func renderMeta() {
        guard report.generatedAt != nil || report.engagementThreshold != nil else { return }
        output += "<p class=\"meta\">"
        if let generatedAt = report.generatedAt {
            output += "Generated <time datetime=\""
            append(untrusted: generatedAt)
            output += "\">"
            append(untrusted: generatedAt)
            output += "</time>"
            if report.engagementThreshold != nil { output += " · " }
        }
        if let threshold = report.engagementThreshold {
            output += "Engagement threshold <strong class=\"threshold\">\(threshold)</strong>"
        }
        output += "</p>\n"
    }

    private mutating func renderSummary() {
        output += "<section class=\"summary\">\n<h2>Summary</h2>\n<ul class=\"cards\">\n"
        for figure in report.summaryFigures {
            output += "<li class=\"card\"><span class=\"value\">\(figure.value)</span>"
            output += "<span class=\"label\">\(figure.label)</span></li>\n"
        }
        output += "</ul>\n</section>\n"
    }

    private mutating func renderWithheld() {
        output += "<section class=\"withheld-reasons\">\n<h2>Withheld by reason</h2>\n"
        let rows = report.withheldRows
        if rows.isEmpty {
            output += "<p class=\"note\">Nothing was withheld.</p>\n</section>\n"
            return
        }
        output += "<table class=\"reasons\">\n<thead><tr><th scope=\"col\">Reason</th>"
        output += "<th scope=\"col\" class=\"num\">Count</th><th scope=\"col\">Explanation</th></tr></thead>\n<tbody>\n"
        for row in rows {
            output += "<tr><td><code>"
            append(untrusted: row.reason)
            output += "</code></td><td class=\"num\">\(row.count)</td><td>"
            append(escaped: row.explanation ?? "")
            output += "</td></tr>\n"
        }
        output += "</tbody>\n</table>\n</section>\n"
    }

    private mutating func renderClusters() {
        let listing = report.listing(atMost: limits.clusters)
        output += "<section class=\"clusters\">\n<h2>Clusters</h2>\n<p class=\"note\">"
        output += "\(listing.clusters.count) of \(report.totalClusters) clusters listed"
        if listing.omittedCount > 0 {
            output += "; <strong class=\"omitted\">\(listing.omittedCount) not listed</strong>"
            output += " (withheld and merged clusters are listed first)"
        }
        output += ".</p>\n"
        for cluster in listing.clusters { renderCluster(cluster) }
        output += "</section>\n"
    }

    private mutating func renderCluster(_ cluster: DedupReport.Cluster) {
        let state = cluster.published ? "published" : "withheld"
        output += "<article class=\"cluster \(state)\">\n<h3><span class=\"badge \(state)\">"
        output += cluster.published ? "Published" : "Withheld"
        output += "</span> <span class=\"id\">"
        append(untrusted: cluster.id)
        output += "</span></h3>\n<dl>\n"
        if !cluster.published {
            output += "<dt>Reason</dt><dd><code class=\"reason\">"
            append(untrusted: cluster.reason)
            output += "</code>"
            if let explanation = cluster.reasonExplanation {
                output += " — "
                append(escaped: explanation)
            }
            output += "</dd>\n"
        }
        if let uniqueIdentifier = cluster.uniqueIdentifier {
            output += "<dt>Unique identifier</dt><dd class=\"id\">"
            append(url: uniqueIdentifier)
            output += "</dd>\n"
        }
        output += "<dt>Matched by</dt><dd>"
        for (index, key) in cluster.matchedBy.enumerated() {
            if index > 0 { output += ", " }
            append(untrusted: key)
        }
        output += "</dd>\n</dl>\n"
        renderMembers(cluster.members)
        output += "</article>\n"
    }

    private mutating func renderMembers(_ members: [DedupReport.Member]) {
        output += "<table class=\"members\">\n<thead><tr><th scope=\"col\">Source</th><th scope=\"col\">ID</th>"
        output += "<th scope=\"col\">URL</th><th scope=\"col\">Bundle</th><th scope=\"col\">Status</th></tr></thead>\n"
        output += "<tbody>\n"
        let memberLimit = max(0, limits.membersPerCluster)
        for member in members.prefix(memberLimit) {
            output += "<tr><td>"
            append(untrusted: member.source)
            output += "</td><td class=\"id\">"
            append(untrusted: member.id)
            output += "</td><td class=\"id\">"
            if let url = member.url { append(url: url) }
            output += "</td><td>"
            if let bundle = member.bundleIdentifier { append(untrusted: bundle) }
            output += "</td><td"
            if let status = member.status {
                output += status == "public" ? " class=\"status-public\">" : " class=\"status-other\">"
                append(untrusted: status)
            } else {
                output += ">"
            }
            output += "</td></tr>\n"
        }
        output += "</tbody>\n</table>\n"
        if members.count > memberLimit {
            output += "<p class=\"more\">\(members.count - memberLimit) more members not listed.</p>\n"
        }
    }
}
