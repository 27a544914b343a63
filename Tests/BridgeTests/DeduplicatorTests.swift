import Bridge
import Testing

/// Builders for small bridge inputs.
enum Make {
    static let now = 1_800_000_000.0
    static let rules = EligibilityRules(engagementThreshold: 3, expirySeconds: 30 * 86_400, now: now)
    /// The test sites' association files: `a.test` names the test app.
    static let associations: [String: Set<String>] = ["https://a.test": ["com.example.app"]]

    static func page(
        _ url: String, canonical: String? = nil, status: Int = 200, indexable: Bool = true, gone: Bool = false,
        title: Bool = true, seen: Double = now - 60, version: UInt64 = 1
    ) -> PageRecord {
        PageRecord(
            url: url, key: url, canonicalKey: canonical, httpStatus: status, isHTML: true, isIndexable: indexable,
            isGone: gone, hasTitle: title, lastSeen: seen, version: version, origin: origin(of: url))
    }

    /// `scheme://host` of `url`.
    static func origin(of url: String) -> String {
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        return String(url[..<afterScheme.startIndex]) + String(afterScheme.prefix { $0 != "/" })
    }

    static func activity(
        _ id: Int64, url: String? = nil, related: String? = nil, info: Bool = false, donors: Int = 3,
        expires: Double? = nil, seen: Double = now - 60, bundle: String = "com.example.app", version: UInt64 = 1
    ) -> ActivityRecord {
        ActivityRecord(
            id: id, bundleIdentifier: bundle, displayID: "view/\(id)", webpageURL: url, urlKey: url,
            relatedUniqueIdentifier: related, hasRequiredUserInfo: info, expiresAt: expires, donors: donors,
            lastSeen: seen, version: version)
    }

    static func item(_ id: String, expires: Double? = nil, bundle: String = "com.example.app") -> AppItemRecord {
        AppItemRecord(bundleIdentifier: bundle, uniqueIdentifier: id, expiresAt: expires, lastSeen: now - 60)
    }
}

@Suite struct DeduplicatorTests {
    /// SPEC §4: a page is public when 2xx, HTML, not noindex, not gone, with a title.
    @Test(
        arguments: [
            (Make.page("https://a.test/ok"), nil),
            (Make.page("https://a.test/noindex", indexable: false), "pageNotPublic: noindex"),
            (Make.page("https://a.test/500", status: 500), "pageNotPublic: http 500"),
            (Make.page("https://a.test/gone", status: 404, gone: true), "pageNotPublic: gone"),
            (Make.page("https://a.test/untitled", title: false), "pageNotPublic: no title"),
            (Make.page("https://a.test/old", seen: Make.now - 31 * 86_400), "stale"),
        ] as [(PageRecord, String?)])
    func pageRules(page: PageRecord, status: String?) throws {
        let plan = try #require(Deduplicator.plan(BridgeInput(pages: [page]), rules: Make.rules).first)
        #expect(plan.pageStatus == [status ?? "public"])
        #expect(plan.isPublished == (status == nil))
    }

    @Test func activityJoinsItsCrawledPage() throws {
        let input = BridgeInput(
            pages: [Make.page("https://a.test/tart")], activities: [Make.activity(1, url: "https://a.test/tart")],
            associations: Make.associations)
        let plans = Deduplicator.plan(input, rules: Make.rules)
        let plan = try #require(plans.first)
        #expect(plans.count == 1)
        #expect(plan.matchedBy == ["webpageURL"])
        #expect(plan.representativePage == 0)
        #expect(plan.contributingActivities == [0])
        #expect(plan.engagement == 3)
        #expect(plan.mergedDuplicates == 1)
    }

    @Test func activityJoinsThroughARedirect() throws {
        let input = BridgeInput(
            pages: [Make.page("https://a.test/new")], activities: [Make.activity(1, url: "https://a.test/old")],
            redirects: [RedirectRecord(fromKey: "https://a.test/old", toKey: "https://a.test/new")],
            associations: Make.associations)
        let plan = try #require(Deduplicator.plan(input, rules: Make.rules).first)
        #expect(plan.matchedBy == ["redirect"])
        #expect(plan.activityStatus == ["public"])
        #expect(plan.isPublished)
    }

    @Test func pagesJoinThroughRelCanonicalAndTheCanonicalOneRepresents() throws {
        let input = BridgeInput(pages: [
            Make.page("https://a.test/tart?print=1", canonical: "https://a.test/tart"),
            Make.page("https://a.test/tart"),
        ])
        let plans = Deduplicator.plan(input, rules: Make.rules)
        #expect(plans.count == 1)
        #expect(plans.first?.matchedBy == ["canonical"])
        #expect(plans.first?.representativePage == 1)
    }

    /// `www.` is kept: two hosts are merged only through a redirect or rel=canonical.
    @Test func hostsAreNotMergedByName() {
        let input = BridgeInput(pages: [Make.page("https://a.test/"), Make.page("https://www.a.test/")])
        #expect(Deduplicator.plan(input, rules: Make.rules).count == 2)
    }

    @Test func activitiesJoinThroughTheirRelatedItem() throws {
        let input = BridgeInput(
            activities: [Make.activity(1, related: "r-42", info: true), Make.activity(2, related: "r-42", info: true)],
            items: [Make.item("r-42")])
        let plans = Deduplicator.plan(input, rules: Make.rules)
        let plan = try #require(plans.first)
        #expect(plans.count == 1)
        #expect(plan.matchedBy == ["relatedUniqueIdentifier"])
        #expect(plan.itemStatus == ["linked"])
        #expect(plan.engagement == 6)
    }

    /// An app can never put a private or uncrawled URL into the index.
    @Test(arguments: [
        (BridgeInput(activities: [Make.activity(1, url: "https://a.test/secret")]), WithholdReason.awaitingCrawl),
        (
            BridgeInput(
                pages: [Make.page("https://a.test/secret", indexable: false)],
                activities: [Make.activity(1, url: "https://a.test/secret")]), .pageNotPublic
        ),
        (
            BridgeInput(
                activities: [Make.activity(1, url: "https://a.test/secret")], unreachableKeys: ["https://a.test/secret"]
            ),
            .pageNotPublic
        ),
    ])
    func activityURLMustBeCrawledAndPublic(input: BridgeInput, reason: WithholdReason) throws {
        let plan = try #require(Deduplicator.plan(input, rules: Make.rules).first)
        #expect(plan.withheldReason == reason)
        #expect(plan.representativePage == nil)
    }

    @Test(arguments: [
        (Make.activity(1, related: "gone", info: true), WithholdReason.relatedItemMissing),
        (Make.activity(1, info: true, expires: Make.now - 1), .expired),
        (Make.activity(1, info: true, seen: Make.now - 40 * 86_400), .stale),
        (Make.activity(1, info: true, donors: 2), .belowEngagementThreshold),
        (Make.activity(1), .noWebpageURLOrUserInfo),
    ])
    func activityRules(activity: ActivityRecord, reason: WithholdReason) throws {
        let plan = try #require(Deduplicator.plan(BridgeInput(activities: [activity]), rules: Make.rules).first)
        #expect(plan.withheldReason == reason)
    }

    @Test func anExpiredItemNoLongerExistsForItsActivities() throws {
        let input = BridgeInput(
            activities: [Make.activity(1, related: "r", info: true)], items: [Make.item("r", expires: Make.now - 1)])
        let plan = try #require(Deduplicator.plan(input, rules: Make.rules).first)
        #expect(plan.withheldReason == .relatedItemMissing)
    }

    @Test func relatedItemsAreScopedByBundle() throws {
        let input = BridgeInput(
            activities: [Make.activity(1, related: "r", info: true, bundle: "com.other")], items: [Make.item("r")])
        let plans = Deduplicator.plan(input, rules: Make.rules)
        #expect(plans.count == 2)
        #expect(plans.contains { $0.withheldReason == .relatedItemMissing })
        #expect(plans.contains { $0.withheldReason == .searchableItemOnly })
    }

    @Test func aUserInfoActivityPublishesWithoutAPage() throws {
        let plan = try #require(
            Deduplicator.plan(BridgeInput(activities: [Make.activity(1, info: true)]), rules: Make.rules).first)
        #expect(plan.isPublished)
        #expect(plan.key == "activity:com.example.app:1")
    }

    @Test func fingerprintFollowsMemberVersionsAndRules() throws {
        let input = BridgeInput(
            pages: [Make.page("https://a.test/")], activities: [Make.activity(1, url: "https://a.test/")],
            associations: Make.associations)
        let first = try #require(Deduplicator.plan(input, rules: Make.rules).first)
        #expect(Deduplicator.plan(input, rules: Make.rules).first?.fingerprint == first.fingerprint)
        var changed = input
        changed.activities[0].version = 2
        #expect(Deduplicator.plan(changed, rules: Make.rules).first?.fingerprint != first.fingerprint)
        var stricter = Make.rules
        stricter.engagementThreshold = 4
        #expect(Deduplicator.plan(input, rules: stricter).first?.fingerprint != first.fingerprint)
        #expect(first.validUntil == Make.now - 60 + 30 * 86_400)
    }

    /// Linear in records: a chain of 200,000 redirects and activities ends in one cluster.
    @Test func longChainsStayOneCluster() {
        let count = 200_000
        let keys = (0..<count).map { "https://a.test/\($0)" }
        let redirects = (1..<count).map { RedirectRecord(fromKey: keys[$0 - 1], toKey: keys[$0]) }
        let activities = keys.enumerated().map { Make.activity(Int64($0.offset), url: $0.element) }
        let input = BridgeInput(
            pages: [Make.page(keys[count - 1])], activities: activities, redirects: redirects,
            associations: Make.associations)
        let plans = Deduplicator.plan(input, rules: Make.rules)
        #expect(plans.count == 1)
        #expect(plans.first?.contributingActivities.count == count)
    }
}
