import Store
import Testing

/// The stored text of outcomes and skip reasons: stores, reports and `crawl --json` read these strings, so
/// they must never change with the enums.
@Suite struct CrawlOutcomeTests {
    @Test(
        "every outcome keeps its stored text",
        arguments: [
            (CrawlOutcome.indexed, "indexed"), (.noindex, "noindex"), (.unchanged, "unchanged"), (.gone, "gone"),
            (.redirect, "redirect"), (.redirectLimit, "redirect-limit"), (.redirectOutOfScope, "redirect-out-of-scope"),
            (.unsupportedType, "type"), (.tooLarge, "size"), (.sitemap, "sitemap"),
            (.sitemapUnchanged, "sitemap-unchanged"), (.sitemapLimit, "sitemap-limit"), (.robotsDisallowed, "robots"),
            (.robotsUnavailable, "robots-unavailable"), (.addressRefused, "address-refused"),
            (.invalidURL, "invalid-url"), (.appNotAssociated, "app-not-associated"), (.robotsFile, "robots"),
            (.appSiteAssociationFile, "app-site-association"),
            (.httpStatus(404), "http-404"), (.retryHTTPStatus(503), "retry.http-503"),
            (.error("dns-failure"), "error.dns-failure"), (.pending, ""),
        ])
    func outcomeText(outcome: CrawlOutcome, text: String) {
        #expect(outcome.text == text)
    }

    @Test("skip reasons are the summary's keys")
    func skipReasons() {
        #expect(
            SkipReason.allCases.map(\.rawValue) == [
                "robots", "noindex", "scope", "depth", "size", "type", "errors", "url-length", "redirect-limit",
                "sitemap-limit", "sitemap-depth", "links-cap", "robots-unavailable", "address-refused", "invalid-url",
                "app-not-associated",
            ])
        #expect(
            DiscoverySource.allCases.map(\.rawValue) == [
                "seed", "link", "sitemap", "robots", "redirect", "activity", "activity-redirect",
            ])
        #expect(DiscoverySource(stored: "activity-redirect") == .activityRedirect)
    }
}
