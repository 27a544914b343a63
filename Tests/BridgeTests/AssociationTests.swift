import Bridge
import Testing

/// SPEC §4: an app speaks for a web page only when the page's host associates it in its
/// apple-app-site-association; otherwise its activity never joins the page's cluster.
@Suite struct AssociationTests {
    static let page = Make.page("https://a.test/tart")

    @Test func anActivityOfAnAppTheSiteDoesNotNameStaysApart() throws {
        let input = BridgeInput(
            pages: [Self.page], activities: [Make.activity(1, url: "https://a.test/tart", bundle: "com.evil.app")],
            associations: Make.associations)
        let plans = Deduplicator.plan(input, rules: Make.rules)
        #expect(plans.count == 2)
        let site = try #require(plans.first { !$0.pages.isEmpty })
        #expect(site.activities.isEmpty && site.contributingActivities.isEmpty)
        #expect(site.engagement == 0 && site.matchedBy.isEmpty)
        let app = try #require(plans.first { $0.pages.isEmpty })
        // Nothing of its own to open: withheld, saying why.
        #expect(app.withheldReason == .appNotAssociated)
        #expect(app.activityStatus == ["appNotAssociated"])
        #expect(app.key == "activity:com.evil.app:1")
    }

    @Test func anUnassociatedActivityWithUserInfoIsAnAppResultOfItsOwn() throws {
        let input = BridgeInput(
            pages: [Self.page],
            activities: [Make.activity(1, url: "https://a.test/tart", info: true, bundle: "com.evil.app")],
            associations: Make.associations)
        let plans = Deduplicator.plan(input, rules: Make.rules)
        let app = try #require(plans.first { $0.pages.isEmpty })
        #expect(app.isPublished)
        #expect(app.representativePage == nil)
        #expect(app.activityStatus == ["public (appNotAssociated)"])
        let site = try #require(plans.first { !$0.pages.isEmpty })
        #expect(site.engagement == 0)
    }

    @Test func noAssociationFileMeansNoApp() throws {
        let input = BridgeInput(pages: [Self.page], activities: [Make.activity(1, url: "https://a.test/tart")])
        #expect(Deduplicator.plan(input, rules: Make.rules).count == 2)
    }

    /// The activity's URL group decides: a donated `http` address that redirects to the associating `https`
    /// page joins it.
    @Test func theHostOfAPageInTheURLGroupDecides() throws {
        let input = BridgeInput(
            pages: [Self.page], activities: [Make.activity(1, url: "http://a.test/tart")],
            redirects: [RedirectRecord(fromKey: "http://a.test/tart", toKey: "https://a.test/tart")],
            associations: Make.associations)
        let plans = Deduplicator.plan(input, rules: Make.rules)
        #expect(plans.count == 1)
        #expect(plans.first?.contributingActivities == [0])
        // The same redirect to a host that names other apps only: kept apart.
        var other = input
        other.associations = ["https://a.test": ["com.other.app"]]
        #expect(Deduplicator.plan(other, rules: Make.rules).count == 2)
    }

    @Test func theItemsAnUnassociatedActivityLinksStayWithIt() throws {
        let input = BridgeInput(
            pages: [Self.page],
            activities: [
                Make.activity(1, url: "https://a.test/tart", related: "r", info: true, bundle: "com.evil.app")
            ],
            items: [Make.item("r", bundle: "com.evil.app")], associations: Make.associations)
        let plans = Deduplicator.plan(input, rules: Make.rules)
        let app = try #require(plans.first { $0.pages.isEmpty })
        #expect(app.items == [0] && app.activities == [0])
        #expect(app.matchedBy == ["relatedUniqueIdentifier"])
    }

    /// A donated URL the crawler left unfetched because its host names no donating app.
    @Test func aURLTheCrawlerRefusedIsWithheldAsNotAssociated() throws {
        let input = BridgeInput(
            activities: [Make.activity(1, url: "https://b.test/x")], notAssociatedKeys: ["https://b.test/x"])
        let plan = try #require(Deduplicator.plan(input, rules: Make.rules).first)
        #expect(plan.withheldReason == .appNotAssociated)
    }
}
