import Bridge
import Testing

@Suite struct DedupReportTextTests {
    @Test func smallReportRendersExactly() {
        let expected = """
            Searchlight dedup report
            Generated at:         2026-05-01T12:00:00Z
            Engagement threshold: 3

            Summary
              Pages              3
              Activities         2
              Searchable items   1
              Clusters           3
              Published          2
              Duplicates merged  2
              Withheld           6

            Withheld by reason
              belowEngagementThreshold  5  fewer distinct donors than the engagement threshold; only hashes are kept
              pageNotPublic             1  the web page is not public (status, content type, noindex or no title)

            Clusters: 3 of 3 listed

              1. WITHHELD   https://example.com/drafts/pie
                 reason:             pageNotPublic — the web page is not public (status, content type, noindex or no title)
                 matched by:         webpageURL
                 members (2):
                   web             https://example.com/drafts/pie
                                   status: noindex
                   activity        recipe-7
                                   url:    https://example.com/drafts/pie
                                   bundle: com.example.recipes
                                   status: public

              2. PUBLISHED  https://example.com/recipes/lemon-tart
                 unique identifier:  https://example.com/recipes/lemon-tart
                 matched by:         webpageURL, relatedUniqueIdentifier
                 members (3):
                   web             https://example.com/recipes/lemon-tart
                                   status: public
                   activity        recipe-42
                                   url:    https://example.com/recipes/lemon-tart
                                   bundle: com.example.recipes
                                   status: public
                   searchableItem  recipe-42
                                   bundle: com.example.recipes
                                   status: searchableItemOnly

              3. PUBLISHED  https://example.com/about
                 unique identifier:  https://example.com/about
                 matched by:         webpageURL
                 members (1):
                   web             https://example.com/about
                                   status: public

            """
        #expect(DedupReportSamples.small.renderedText() == expected)
    }

    @Test func controlAndBidiCharactersCannotReachTheTerminal() {
        let text = DedupReportSamples.hostile.renderedText()
        let hidden = text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || $0.value == 0x202E) }
        #expect(hidden.isEmpty)
        #expect(text.contains("bundle: com.evil\\u{1B}[2J\\u{1B}[31mred\n"))
        #expect(text.contains("status: \\u{202E}cilbup\n"))
        // The newline inside an id stays on its line instead of forging a new one.
        #expect(text.contains("activity        a|b\\u{A}| injected | row |\n"))
        #expect(!text.contains("\n| injected"))
        #expect(text.contains("<b>bold</b> | 1 |\\u{A}| forged  1\n"))
    }

    @Test func omittedClustersAreCountedAndInterestingOnesListedFirst() {
        let report = DedupReportSamples.large(count: 1000, withheldEvery: 100, mergedEvery: 7)
        let text = report.renderedText(limits: .init(clusters: 12))
        #expect(
            text.contains(
                "\nClusters: 12 of 1000 listed; 988 not listed (withheld and merged clusters are listed first)\n"))
        let headers = text.split(separator: "\n").filter {
            $0.hasPrefix("  ") && $0.dropFirst(2).first?.isNumber == true
        }
        #expect(headers.count == 12)
        // Ten withheld clusters (every 100th), then merged ones (every 7th that is not withheld).
        #expect(headers.first == "  1. WITHHELD   https://example.com/page/99")
        #expect(headers[9] == "  10. WITHHELD   https://example.com/page/999")
        #expect(headers[10] == "  11. PUBLISHED  https://example.com/page/6")
        #expect(headers[11] == "  12. PUBLISHED  https://example.com/page/13")
    }

    @Test func membersAndLongStringsAreBounded() {
        let longID = String(repeating: "x", count: 100_000)
        let members = (0..<500).map { DedupReport.Member(source: "activity", id: "\($0)-\(longID)") }
        let report = DedupReport(
            summary: .init(
                pages: 0, activities: 500, searchableItems: 0, clusters: 1, published: 1, duplicatesMerged: 499,
                withheld: [:]),
            clusters: [.init(id: longID, published: true, reason: "published", matchedBy: [], members: members)])
        let text = report.renderedText(limits: .init(membersPerCluster: 3, fieldLength: 40))
        #expect(text.contains("members (500):\n"))
        #expect(text.contains("… 497 more members not listed\n"))
        #expect(text.contains("PUBLISHED  \(String(repeating: "x", count: 40))… [99960 more characters]\n"))
        #expect(text.utf8.count < 2_000)
        #expect(text.contains("(nothing withheld)"))
    }
}
