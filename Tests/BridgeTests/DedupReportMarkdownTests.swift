import Bridge
import Testing

@Suite struct DedupReportMarkdownTests {
    @Test func smallReportRendersExactly() {
        let expected = """
            # Searchlight dedup report

            Generated at 2026-05-01T12:00:00Z · engagement threshold 3

            ## Summary

            | What | Count |
            | :--- | ---: |
            | Pages | 3 |
            | Activities | 2 |
            | Searchable items | 1 |
            | Clusters | 3 |
            | Published | 2 |
            | Duplicates merged | 2 |
            | Withheld | 6 |

            ## Withheld by reason

            | Reason | Count | Explanation |
            | :--- | ---: | :--- |
            | belowEngagementThreshold | 5 | fewer distinct donors than the engagement threshold; only hashes are kept |
            | pageNotPublic | 1 | the web page is not public (status, content type, noindex or no title) |

            ## Clusters

            3 of 3 clusters listed.

            ### 1. Withheld: https://example.com/drafts/pie

            - Reason: pageNotPublic — the web page is not public (status, content type, noindex or no title)
            - Matched by: webpageURL

            | Source | ID | URL | Bundle | Status |
            | :--- | :--- | :--- | :--- | :--- |
            | web | https://example.com/drafts/pie | https://example.com/drafts/pie |  | noindex |
            | activity | recipe-7 | https://example.com/drafts/pie | com.example.recipes | public |

            ### 2. Published: https://example.com/recipes/lemon-tart

            - Unique identifier: https://example.com/recipes/lemon-tart
            - Matched by: webpageURL, relatedUniqueIdentifier

            | Source | ID | URL | Bundle | Status |
            | :--- | :--- | :--- | :--- | :--- |
            | web | https://example.com/recipes/lemon-tart | https://example.com/recipes/lemon-tart |  | public |
            | activity | recipe-42 | https://example.com/recipes/lemon-tart | com.example.recipes | public |
            | searchableItem | recipe-42 |  | com.example.recipes | searchableItemOnly |

            ### 3. Published: https://example.com/about

            - Unique identifier: https://example.com/about
            - Matched by: webpageURL

            | Source | ID | URL | Bundle | Status |
            | :--- | :--- | :--- | :--- | :--- |
            | web | https://example.com/about | https://example.com/about |  | public |

            """
        #expect(DedupReportSamples.small.renderedMarkdown() == expected)
    }

    @Test func hostileStringsAreEscaped() {
        let markdown = DedupReportSamples.hostile.renderedMarkdown()
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        // Every member row keeps exactly six cell delimiters: no `|` or newline from the data splits a cell.
        let memberRows = lines.filter { $0.hasPrefix("| web ") || $0.hasPrefix("| activity ") }
        #expect(memberRows.count == 5)
        for row in memberRows { #expect(unescapedCount(of: "|", in: row) == 6, "\(row)") }
        #expect(!lines.contains { $0.hasPrefix("| injected") || $0.hasPrefix("| forged") })
        // Nothing from the data can open raw HTML, code, emphasis or a link.
        for character: Character in ["<", ">", "`", "*", "_", "[", "]", "&"] {
            let bodyLines = lines.filter { !$0.hasPrefix("| :---") }
            for line in bodyLines { #expect(unescapedCount(of: character, in: line) == 0, "\(character) in \(line)") }
        }
        #expect(markdown.contains("| activity | a\\|b\\\\u{A}\\| injected \\| row \\| | javascript:pwn('link') | "))
        #expect(markdown.contains("### 1. Withheld: \"\\>\\<svg onload=pwn('svg')\\>\n"))
        #expect(markdown.contains("- Matched by: \\`code\\`, \\*em\\* \\_em\\_ \\[link\\](javascript:pwn())\n"))
        #expect(markdown.contains("| \\<b\\>bold\\</b\\> \\| 1 \\|\\\\u{A}\\| forged | 1 |  |\n"))
        #expect(markdown.contains("Generated at \\</title\\>\\<script\\>pwn('title')\\</script\\> · "))
        #expect(
            markdown.contains("| web | \\&lt;already\\&gt; \\& \\<\\!-- comment --\\> | http://plain.example/a b |"))
    }

    @Test func omittedClustersAreCounted() {
        let report = DedupReportSamples.large(count: 300, withheldEvery: 50, mergedEvery: 10)
        let markdown = report.renderedMarkdown(limits: .init(clusters: 8))
        #expect(
            markdown.contains(
                "\n8 of 300 clusters listed; 292 not listed (withheld and merged clusters are listed first).\n"))
        let headings = markdown.split(separator: "\n").filter { $0.hasPrefix("### ") }
        #expect(
            headings == [
                "### 1. Withheld: https://example.com/page/49", "### 2. Withheld: https://example.com/page/99",
                "### 3. Withheld: https://example.com/page/149", "### 4. Withheld: https://example.com/page/199",
                "### 5. Withheld: https://example.com/page/249", "### 6. Withheld: https://example.com/page/299",
                "### 7. Published: https://example.com/page/9", "### 8. Published: https://example.com/page/19",
            ])
        let none = report.renderedMarkdown(limits: .init(clusters: -1))
        #expect(none.contains("\n0 of 300 clusters listed; 300 not listed"))
        #expect(!none.contains("### "))
    }

    /// How often `character` occurs in `line` without a backslash escaping it.
    private func unescapedCount(of character: Character, in line: Substring) -> Int {
        var count = 0
        var escaped = false
        for current in line {
            if escaped {
                escaped = false
            } else if current == "\\" {
                escaped = true
            } else if current == character {
                count += 1
            }
        }
        return count
    }
}
