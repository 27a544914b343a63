import Bridge

/// Reports shared by the renderer tests.
enum DedupReportSamples {
    /// Three clusters in the report's own order (published first): a merged one, a single page,
    /// and a withheld one.
    static let small = DedupReport(
        summary: .init(
            pages: 3, activities: 2, searchableItems: 1, clusters: 3, published: 2, duplicatesMerged: 2,
            withheld: ["pageNotPublic": 1, "belowEngagementThreshold": 5]),
        clusters: [
            .init(
                id: "https://example.com/recipes/lemon-tart", published: true, reason: "published",
                matchedBy: ["webpageURL", "relatedUniqueIdentifier"],
                members: [
                    .init(
                        source: "web", id: "https://example.com/recipes/lemon-tart",
                        url: "https://example.com/recipes/lemon-tart", status: "public"),
                    .init(
                        source: "activity", id: "recipe-42", url: "https://example.com/recipes/lemon-tart",
                        bundleIdentifier: "com.example.recipes", status: "public"),
                    .init(
                        source: "searchableItem", id: "recipe-42", bundleIdentifier: "com.example.recipes",
                        status: "searchableItemOnly"),
                ],
                uniqueIdentifier: "https://example.com/recipes/lemon-tart"),
            .init(
                id: "https://example.com/about", published: true, reason: "published", matchedBy: ["webpageURL"],
                members: [
                    .init(
                        source: "web", id: "https://example.com/about", url: "https://example.com/about",
                        status: "public")
                ],
                uniqueIdentifier: "https://example.com/about"),
            .init(
                id: "https://example.com/drafts/pie", published: false, reason: "pageNotPublic",
                matchedBy: ["webpageURL"],
                members: [
                    .init(
                        source: "web", id: "https://example.com/drafts/pie", url: "https://example.com/drafts/pie",
                        status: "noindex"),
                    .init(
                        source: "activity", id: "recipe-7", url: "https://example.com/drafts/pie",
                        bundleIdentifier: "com.example.recipes", status: "public"),
                ]),
        ],
        generatedAt: "2026-05-01T12:00:00Z",
        engagementThreshold: 3)
}

extension DedupReportSamples {
    /// Strings an attacker controls (page URLs, activity ids, bundle ids) written to break each format.
    static let hostile = DedupReport(
        summary: .init(
            pages: 1, activities: 1, searchableItems: 0, clusters: 2, published: 1, duplicatesMerged: 0,
            withheld: ["<b>bold</b> | 1 |\n| forged": 1]),
        clusters: [
            .init(
                id: "https://ok.example/?q=\"><img src=x onerror=\"pwn('img')\">", published: true,
                reason: "published", matchedBy: ["`code`", "*em* _em_ [link](javascript:pwn())"],
                members: [
                    .init(
                        source: "web", id: "<script>pwn('script')</script>",
                        url: "https://ok.example/?q=\"><img src=x onerror=\"pwn('img')\">", status: "public"),
                    .init(
                        source: "activity", id: "a|b\n| injected | row |", url: "javascript:pwn('link')",
                        bundleIdentifier: "com.evil\u{1B}[2J\u{1B}[31mred", status: "\u{202E}cilbup"),
                    .init(source: "activity", id: "x", url: " JaVaScRiPt:pwn('spaced')"),
                    .init(source: "activity", id: "y", url: "data:text/html,<script>pwn('data')</script>"),
                ],
                uniqueIdentifier: "https://ok.example/?q=\"><img src=x onerror=\"pwn('img')\">"),
            .init(
                id: "\"><svg onload=pwn('svg')>", published: false, reason: "<i>unknown</i>",
                matchedBy: [],
                members: [
                    .init(source: "web", id: "&lt;already&gt; & <!-- comment -->", url: "http://plain.example/a b")
                ]),
        ],
        generatedAt: "</title><script>pwn('title')</script>",
        engagementThreshold: 3)

    /// `count` single-member published clusters with a withheld one every `withheldEvery`-th and a
    /// merged one every `mergedEvery`-th, so the listing has to pick from the whole report.
    static func large(count: Int, withheldEvery: Int, mergedEvery: Int) -> DedupReport {
        var clusters: [DedupReport.Cluster] = []
        clusters.reserveCapacity(count)
        var merged = 0
        for index in 0..<count {
            let id = "https://example.com/page/\(index)"
            let page = DedupReport.Member(source: "web", id: id, url: id, status: "public")
            if index % withheldEvery == withheldEvery - 1 {
                clusters.append(
                    .init(id: id, published: false, reason: "pageNotPublic", matchedBy: ["webpageURL"], members: [page])
                )
            } else if index % mergedEvery == mergedEvery - 1 {
                let activity = DedupReport.Member(source: "activity", id: "activity-\(index)", url: id)
                merged += 1
                clusters.append(
                    .init(
                        id: id, published: true, reason: "published", matchedBy: ["webpageURL"],
                        members: [page, activity], uniqueIdentifier: id))
            } else {
                clusters.append(
                    .init(
                        id: id, published: true, reason: "published", matchedBy: ["webpageURL"], members: [page],
                        uniqueIdentifier: id))
            }
        }
        let withheld = count / withheldEvery
        return DedupReport(
            summary: .init(
                pages: count, activities: merged, searchableItems: 0, clusters: count, published: count - withheld,
                duplicatesMerged: merged, withheld: ["pageNotPublic": withheld]),
            clusters: clusters)
    }
}
