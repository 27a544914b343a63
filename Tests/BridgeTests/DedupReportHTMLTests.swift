import Bridge
import Testing

@Suite struct DedupReportHTMLTests {
    @Test func smallReportPageHasTheExpectedHeadAndBody() throws {
        let html = DedupReportSamples.small.renderedHTML()
        #expect(
            html.hasPrefix(
                """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
                base-uri 'none'; form-action 'none'">
                <meta name="referrer" content="no-referrer">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Searchlight dedup report</title>
                <style>

                """))
        #expect(
            html.contains(
                """
                </style>
                </head>
                <body>
                <header>
                <h1>Searchlight dedup report</h1>
                <p class="meta">Generated <time datetime="2026-05-01T12:00:00Z">2026-05-01T12:00:00Z</time> · \
                Engagement threshold <strong class="threshold">3</strong></p>
                </header>

                """))
        let main = try #require(html.range(of: "<main>\n")?.lowerBound)
        #expect(String(html[main...]) == Self.expectedMain)
    }

    @Test func hostileStringsAreEscapedAndOnlyHTTPURLsAreLinked() {
        let html = DedupReportSamples.hostile.renderedHTML()
        // Only the page's own elements and attributes: nothing from the data became markup.
        let tags = HTMLTag.scan(html)
        #expect(Set(tags.map { String($0.name.trimmingPrefix("/")) }).isSubset(of: HTMLTag.reportElements))
        #expect(Set(tags.flatMap(\.attributes)).isSubset(of: HTMLTag.reportAttributes))
        #expect(tags.filter { $0.name == "!" }.count == 1)
        #expect(html.contains("<td class=\"id\">&lt;script&gt;pwn(&#39;script&#39;)&lt;/script&gt;</td>"))
        #expect(html.contains("<span class=\"id\">&quot;&gt;&lt;svg onload=pwn(&#39;svg&#39;)&gt;</span>"))
        #expect(html.contains("<td class=\"id\">javascript:pwn(&#39;link&#39;)</td>"))
        #expect(html.contains("<td class=\"id\"> JaVaScRiPt:pwn(&#39;spaced&#39;)</td>"))
        #expect(html.contains("<td>com.evil\\u{1B}[2J\\u{1B}[31mred</td>"))
        #expect(html.contains("<td class=\"status-other\">\\u{202E}cilbup</td>"))
        #expect(html.contains("<td class=\"id\">&amp;lt;already&amp;gt; &amp; &lt;!-- comment --&gt;</td>"))
        // The quote inside an http URL cannot close the href attribute.
        #expect(
            html.contains(
                "<a href=\"https://ok.example/?q=&quot;&gt;&lt;img src=x onerror=&quot;pwn(&#39;img&#39;)&quot;&gt;\" "
                    + "rel=\"noopener noreferrer nofollow\">"))
        // Links: the uniqueIdentifier and the web member's URL (https), and the plain http one; nothing else.
        let hrefs = html.components(separatedBy: "<a href=\"").dropFirst().map { $0.prefix(while: { $0 != "\"" }) }
        #expect(hrefs.count == 3)
        #expect(hrefs.allSatisfy { $0.hasPrefix("https://") || $0.hasPrefix("http://") })
    }

    @Test func omittedClustersAreCountedAndMembersBounded() {
        let report = DedupReportSamples.large(count: 200_000, withheldEvery: 1000, mergedEvery: 3)
        let html = report.renderedHTML(limits: .init(clusters: 250, membersPerCluster: 1))
        #expect(
            html.contains(
                "<p class=\"note\">250 of 200000 clusters listed; <strong class=\"omitted\">199750 not listed</strong>"
                    + " (withheld and merged clusters are listed first).</p>"))
        #expect(html.components(separatedBy: "<article class=\"cluster withheld\">").count - 1 == 200)
        #expect(html.components(separatedBy: "<article class=\"cluster published\">").count - 1 == 50)
        #expect(html.components(separatedBy: "<p class=\"more\">1 more members not listed.</p>").count - 1 == 50)
        // Bounded by the limit, not by the report: a quarter of a megabyte for 250 clusters.
        #expect(html.utf8.count < 250_000)
    }

    @Test func urlsThatWereCutOrAlteredAreNotLinked() {
        let long = "https://example.com/" + String(repeating: "a", count: 100)
        let report = DedupReport(
            summary: .init(
                pages: 2, activities: 0, searchableItems: 0, clusters: 1, published: 0, duplicatesMerged: 0,
                withheld: ["stale": 1]),
            clusters: [
                .init(
                    id: "c", published: false, reason: "stale", matchedBy: ["redirect"],
                    members: [
                        .init(source: "web", id: "1", url: long), .init(source: "web", id: "2", url: "https://a/\nb"),
                    ])
            ])
        let html = report.renderedHTML(limits: .init(fieldLength: 30))
        #expect(!html.contains("<a "))
        #expect(html.contains("<td class=\"id\">https://example.com/aaaaaaaaaa… [90 more characters]</td>"))
        #expect(html.contains("<td class=\"id\">https://a/\\u{A}b</td>"))
        #expect(html.contains("<code class=\"reason\">stale</code> — not seen within the expiry period</dd>"))
    }

    private static let expectedMain = """
        <main>
        <section class="summary">
        <h2>Summary</h2>
        <ul class="cards">
        <li class="card"><span class="value">3</span><span class="label">Pages</span></li>
        <li class="card"><span class="value">2</span><span class="label">Activities</span></li>
        <li class="card"><span class="value">1</span><span class="label">Searchable items</span></li>
        <li class="card"><span class="value">3</span><span class="label">Clusters</span></li>
        <li class="card"><span class="value">2</span><span class="label">Published</span></li>
        <li class="card"><span class="value">2</span><span class="label">Duplicates merged</span></li>
        <li class="card"><span class="value">6</span><span class="label">Withheld</span></li>
        </ul>
        </section>
        <section class="withheld-reasons">
        <h2>Withheld by reason</h2>
        <table class="reasons">
        <thead><tr><th scope="col">Reason</th><th scope="col" class="num">Count</th><th scope="col">Explanation</th></tr></thead>
        <tbody>
        <tr><td><code>belowEngagementThreshold</code></td><td class="num">5</td><td>fewer distinct donors than the engagement threshold; only hashes are kept</td></tr>
        <tr><td><code>pageNotPublic</code></td><td class="num">1</td><td>the web page is not public (status, content type, noindex or no title)</td></tr>
        </tbody>
        </table>
        </section>
        <section class="clusters">
        <h2>Clusters</h2>
        <p class="note">3 of 3 clusters listed.</p>
        <article class="cluster withheld">
        <h3><span class="badge withheld">Withheld</span> <span class="id">https://example.com/drafts/pie</span></h3>
        <dl>
        <dt>Reason</dt><dd><code class="reason">pageNotPublic</code> — the web page is not public (status, content type, noindex or no title)</dd>
        <dt>Matched by</dt><dd>webpageURL</dd>
        </dl>
        <table class="members">
        <thead><tr><th scope="col">Source</th><th scope="col">ID</th><th scope="col">URL</th><th scope="col">Bundle</th><th scope="col">Status</th></tr></thead>
        <tbody>
        <tr><td>web</td><td class="id">https://example.com/drafts/pie</td><td class="id"><a href="https://example.com/drafts/pie" rel="noopener noreferrer nofollow">https://example.com/drafts/pie</a></td><td></td><td class="status-other">noindex</td></tr>
        <tr><td>activity</td><td class="id">recipe-7</td><td class="id"><a href="https://example.com/drafts/pie" rel="noopener noreferrer nofollow">https://example.com/drafts/pie</a></td><td>com.example.recipes</td><td class="status-public">public</td></tr>
        </tbody>
        </table>
        </article>
        <article class="cluster published">
        <h3><span class="badge published">Published</span> <span class="id">https://example.com/recipes/lemon-tart</span></h3>
        <dl>
        <dt>Unique identifier</dt><dd class="id"><a href="https://example.com/recipes/lemon-tart" rel="noopener noreferrer nofollow">https://example.com/recipes/lemon-tart</a></dd>
        <dt>Matched by</dt><dd>webpageURL, relatedUniqueIdentifier</dd>
        </dl>
        <table class="members">
        <thead><tr><th scope="col">Source</th><th scope="col">ID</th><th scope="col">URL</th><th scope="col">Bundle</th><th scope="col">Status</th></tr></thead>
        <tbody>
        <tr><td>web</td><td class="id">https://example.com/recipes/lemon-tart</td><td class="id"><a href="https://example.com/recipes/lemon-tart" rel="noopener noreferrer nofollow">https://example.com/recipes/lemon-tart</a></td><td></td><td class="status-public">public</td></tr>
        <tr><td>activity</td><td class="id">recipe-42</td><td class="id"><a href="https://example.com/recipes/lemon-tart" rel="noopener noreferrer nofollow">https://example.com/recipes/lemon-tart</a></td><td>com.example.recipes</td><td class="status-public">public</td></tr>
        <tr><td>searchableItem</td><td class="id">recipe-42</td><td class="id"></td><td>com.example.recipes</td><td class="status-other">searchableItemOnly</td></tr>
        </tbody>
        </table>
        </article>
        <article class="cluster published">
        <h3><span class="badge published">Published</span> <span class="id">https://example.com/about</span></h3>
        <dl>
        <dt>Unique identifier</dt><dd class="id"><a href="https://example.com/about" rel="noopener noreferrer nofollow">https://example.com/about</a></dd>
        <dt>Matched by</dt><dd>webpageURL</dd>
        </dl>
        <table class="members">
        <thead><tr><th scope="col">Source</th><th scope="col">ID</th><th scope="col">URL</th><th scope="col">Bundle</th><th scope="col">Status</th></tr></thead>
        <tbody>
        <tr><td>web</td><td class="id">https://example.com/about</td><td class="id"><a href="https://example.com/about" rel="noopener noreferrer nofollow">https://example.com/about</a></td><td></td><td class="status-public">public</td></tr>
        </tbody>
        </table>
        </article>
        </section>
        </main>
        </body>
        </html>

        """
}
