/// Clusters pages, activities and searchable items and decides what each cluster publishes (SPEC §4).
///
/// Two disjoint-set passes, both linear in the number of records:
/// - the *URL groups*: canonical URL keys joined by redirects and `rel=canonical`. An activity's
///   `webpageURL` counts as crawled and public only when its group holds a public page — so an app can
///   never put a private or uncrawled URL into the index;
/// - the *clusters*: URL groups plus `relatedUniqueIdentifier` links to searchable items.
package enum Deduplicator {
    /// Every cluster of `input`, ordered by key.
    package static func plan(_ input: BridgeInput, rules: EligibilityRules) -> [ClusterPlan] {
        var graph = ClusterGraph(input: input)
        graph.linkURLs()
        let roots = URLRoots(
            webPublic: graph.publicURLRoots(rules: rules), crawled: graph.crawledURLRoots(),
            robotsDisallowed: graph.robotsDisallowedURLRoots(), notAssociated: graph.notAssociatedURLRoots())
        graph.linkRecords()
        return graph.clusters().map { members in
            decide(members, input: input, rules: rules, roots: roots)
        }
        .sorted { $0.key < $1.key }
    }

    private static func decide(
        _ members: ClusterGraph.Members, input: BridgeInput, rules: EligibilityRules, roots: URLRoots
    ) -> ClusterPlan {
        // An expired searchable item no longer exists for the activities that name it.
        let presentItems = Set(
            members.items.lazy.map { input.items[$0] }.filter { ($0.expiresAt ?? .infinity) > rules.now }.map(
                ItemRef.init))
        var validUntil: Double?
        func noteDeadline(_ time: Double?) {
            guard let time, time > rules.now else { return }
            validUntil = min(validUntil ?? time, time)
        }
        var hasher = StableHasher()
        hasher.combine(UInt64(rules.engagementThreshold))
        hasher.combine(rules.expirySeconds)
        var lastSeen = 0.0

        var publicPages: [Int] = []
        let pageStatus = members.pages.map { index -> String in
            let page = input.pages[index]
            hasher.combine("p" + page.url)
            hasher.combine(page.version)
            lastSeen = max(lastSeen, page.lastSeen)
            noteDeadline(page.lastSeen + rules.expirySeconds)
            if let detail = page.notPublicDetail { return "\(WithholdReason.pageNotPublic.rawValue): \(detail)" }
            guard page.lastSeen + rules.expirySeconds > rules.now else { return WithholdReason.stale.rawValue }
            publicPages.append(index)
            return "public"
        }
        var publicActivities: [Int] = []
        let activityStatus = members.activities.map { index -> String in
            let activity = input.activities[index]
            hasher.combine("a" + String(activity.id))
            hasher.combine(activity.version)
            lastSeen = max(lastSeen, activity.lastSeen)
            noteDeadline(activity.expiresAt)
            noteDeadline(activity.lastSeen + rules.expirySeconds)
            let unassociated = members.unassociated.contains(index)
            let status = status(
                of: activity, urlRoot: members.activityURLRoots[index], unassociated: unassociated,
                presentItems: presentItems, rules: rules, roots: roots)
            // The status also depends on the crawl of the activity's URL group and on its host's association
            // file, which no member's version covers (a URL robots.txt disallowed leaves no page): a change
            // rewrites the cluster.
            hasher.combine(status?.rawValue ?? "public")
            hasher.combine(unassociated ? "apart" : "")
            if status == nil { publicActivities.append(index) }
            // Published apart from the page it names: the report says why it did not join it.
            if status == nil, unassociated { return "public (\(WithholdReason.appNotAssociated.rawValue))" }
            return status?.rawValue ?? "public"
        }
        let itemStatus = members.items.map { index -> String in
            let item = input.items[index]
            hasher.combine("i" + item.bundleIdentifier + "\u{0}" + item.uniqueIdentifier)
            hasher.combine(item.expiresAt)
            hasher.combine(item.lastSeen)
            noteDeadline(item.expiresAt)
            if let expiresAt = item.expiresAt, expiresAt <= rules.now { return WithholdReason.expired.rawValue }
            return "linked"
        }

        publicActivities.sort { lhs, rhs in
            let a = input.activities[lhs]
            let b = input.activities[rhs]
            if a.donors != b.donors { return a.donors > b.donors }
            if a.lastSeen != b.lastSeen { return a.lastSeen > b.lastSeen }
            return a.id < b.id
        }
        let representative = publicPages.min { lhs, rhs in
            let a = input.pages[lhs]
            let b = input.pages[rhs]
            let aSelf = a.canonicalKey == nil || a.canonicalKey == a.key
            let bSelf = b.canonicalKey == nil || b.canonicalKey == b.key
            if aSelf != bSelf { return aSelf }
            if a.key.utf8.count != b.key.utf8.count { return a.key.utf8.count < b.key.utf8.count }
            return a.key < b.key
        }
        let published = !publicPages.isEmpty || !publicActivities.isEmpty
        let reason: WithholdReason? =
            published
            ? nil
            : withholdReason(pageStatus: pageStatus, activityStatus: activityStatus, hasItems: !members.items.isEmpty)
        let expiresAt = publicActivities.compactMap { input.activities[$0].expiresAt }.min()
        return ClusterPlan(
            key: members.key, pages: members.pages, activities: members.activities, items: members.items,
            matchedBy: members.matchedBy, withheldReason: reason, representativePage: representative,
            contributingActivities: publicActivities,
            engagement: publicActivities.reduce(0) { $0 + input.activities[$1].donors },
            pageStatus: pageStatus, activityStatus: activityStatus, itemStatus: itemStatus,
            fingerprint: hasher.value, validUntil: validUntil, lastSeen: lastSeen, expiresAt: expiresAt)
    }

    /// `nil` when the activity is public; else why not.
    private static func status(
        of activity: ActivityRecord, urlRoot: Int?, unassociated: Bool, presentItems: Set<ItemRef>,
        rules: EligibilityRules, roots: URLRoots
    ) -> WithholdReason? {
        if activity.donors < rules.engagementThreshold { return .belowEngagementThreshold }
        if let expiresAt = activity.expiresAt, expiresAt <= rules.now { return .expired }
        if activity.lastSeen + rules.expirySeconds <= rules.now { return .stale }
        if let related = activity.relatedUniqueIdentifier,
            !presentItems.contains(ItemRef(bundle: activity.bundleIdentifier, id: related))
        {
            return .relatedItemMissing
        }
        if let urlRoot {
            if roots.webPublic.contains(urlRoot) {
                // A public page the app may not speak for: an app result of its own when the app can open
                // it by its user info, never merged into the page.
                guard unassociated else { return nil }
                return activity.hasRequiredUserInfo ? nil : .appNotAssociated
            }
            if roots.robotsDisallowed.contains(urlRoot) { return .robotsDisallowed }
            if roots.notAssociated.contains(urlRoot) { return .appNotAssociated }
            return roots.crawled.contains(urlRoot) ? .pageNotPublic : .awaitingCrawl
        }
        return activity.hasRequiredUserInfo ? nil : .noWebpageURLOrUserInfo
    }

    /// The most telling reason among the members' (the one a site or app owner can act on first).
    private static func withholdReason(pageStatus: [String], activityStatus: [String], hasItems: Bool)
        -> WithholdReason
    {
        let order: [WithholdReason] = [
            .relatedItemMissing, .robotsDisallowed, .appNotAssociated, .pageNotPublic, .awaitingCrawl, .expired,
            .stale,
            .belowEngagementThreshold,
            .noWebpageURLOrUserInfo,
        ]
        let seen = Set((activityStatus + pageStatus).map { $0.prefix { $0 != ":" } }.map(String.init))
        if let first = order.first(where: { seen.contains($0.rawValue) }) { return first }
        return hasItems ? .searchableItemOnly : .pageNotPublic
    }
}

/// A searchable item's identity: identifiers are scoped by bundle.
struct ItemRef: Hashable {
    var bundle: String
    var id: String

    init(bundle: String, id: String) {
        self.bundle = bundle
        self.id = id
    }

    init(_ item: AppItemRecord) {
        self.init(bundle: item.bundleIdentifier, id: item.uniqueIdentifier)
    }
}

/// The URL groups (roots after ``ClusterGraph/linkURLs()``) by what the crawl found in them.
struct URLRoots {
    /// Groups holding a page public now.
    var webPublic: Set<Int>
    /// Groups the crawler has tried: a page, or a URL it gave up on or was not allowed to fetch.
    var crawled: Set<Int>
    /// Groups holding a URL robots.txt disallowed.
    var robotsDisallowed: Set<Int>
    /// Groups holding a donated URL left unfetched because its host does not associate the app.
    var notAssociated: Set<Int>
}
