import Bridge
import Testing

@Suite struct DedupReportListingTests {
    @Test func withheldThenMergedThenSingleInReportOrder() {
        let report = DedupReportSamples.large(count: 40, withheldEvery: 10, mergedEvery: 4)
        let listing = report.listing(atMost: 9)
        #expect(
            listing.clusters.map(\.id) == [9, 19, 29, 39, 3, 7, 11, 15, 23].map { "https://example.com/page/\($0)" })
        #expect(listing.omittedCount == 31)
        #expect(report.listing(atMost: 9) == listing)
    }

    @Test(arguments: [(Int.min, 0), (-1, 0), (0, 0), (1, 1), (40, 40), (Int.max, 40)])
    func limitIsClamped(limit: Int, listed: Int) {
        let listing = DedupReportSamples.large(count: 40, withheldEvery: 10, mergedEvery: 4).listing(atMost: limit)
        #expect(listing.clusters.count == listed)
        #expect(listing.omittedCount == 40 - listed)
    }

    @Test func everyClusterListedWhenUnderTheLimit() {
        let listing = DedupReportSamples.small.listing(atMost: 1000)
        #expect(
            listing.clusters.map(\.id) == [
                "https://example.com/drafts/pie", "https://example.com/recipes/lemon-tart", "https://example.com/about",
            ])
        #expect(listing.omittedCount == 0)
    }
}
