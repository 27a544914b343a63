/// The disjoint sets behind ``Deduplicator``: one node per canonical URL key, per searchable-item
/// identity and per activity without a URL; records attach to their node, links join nodes.
struct ClusterGraph {
    /// The members of one cluster, as indices into the input, and how they were joined.
    struct Members {
        var key: String
        var pages: [Int] = []
        var activities: [Int] = []
        var items: [Int] = []
        var matchedBy: [String] = []
        /// For each activity index with a URL: the root of its URL group (before item links).
        var activityURLRoots: [Int: Int] = [:]
        /// Activity indices with a URL whose group holds no page of a host that associates the app: kept
        /// out of that group, each a cluster of its own (with the items it links).
        var unassociated: Set<Int> = []
    }

    private struct Tags: OptionSet {
        let rawValue: UInt8
        static let webpageURL = Tags(rawValue: 1)
        static let canonical = Tags(rawValue: 2)
        static let redirect = Tags(rawValue: 4)
        static let related = Tags(rawValue: 8)

        var names: [String] {
            var names: [String] = []
            if contains(.webpageURL) { names.append("webpageURL") }
            if contains(.canonical) { names.append("canonical") }
            if contains(.redirect) { names.append("redirect") }
            if contains(.related) { names.append("relatedUniqueIdentifier") }
            return names
        }
    }

    private let input: BridgeInput
    private var sets = UnionFind(count: 0)
    private var urlNodes: [String: Int] = [:]
    private var itemNodes: [ItemRef: Int] = [:]
    /// Records attached under each root; a link is a *match* only when both sides hold records.
    private var memberCount: [Int32] = []
    private var tags: [Tags] = []
    private var pageNodes: [Int] = []
    private var activityNodes: [Int] = []
    private var itemNodeOfItem: [Int] = []
    private var activityURLRoots: [Int?] = []
    /// Per activity: whether it joined its URL group (its host associates the app).
    private var isAssociated: [Bool] = []

    init(input: BridgeInput) {
        self.input = input
        let expected = input.pages.count + input.activities.count + input.items.count
        urlNodes.reserveCapacity(expected)
        pageNodes = input.pages.map { _ in 0 }
        for (index, page) in input.pages.enumerated() {
            pageNodes[index] = urlNode(page.key)
            memberCount[pageNodes[index]] += 1
        }
        for key in input.unreachableKeys { _ = urlNode(key) }
        for key in input.robotsDisallowedKeys { _ = urlNode(key) }
        for key in input.notAssociatedKeys { _ = urlNode(key) }
        activityNodes.reserveCapacity(input.activities.count)
        isAssociated = Self.associatedActivities(input)
        for (index, activity) in input.activities.enumerated() {
            // An app speaks for a page only when the page's host associates it (SPEC §4); otherwise its
            // activity stays apart, though its URL group still decides whether it was crawled.
            let node: Int
            if let key = activity.urlKey {
                let ownURL = urlNode(key)
                node = isAssociated[index] ? ownURL : newNode()
            } else {
                node = newNode()
            }
            // Another record already at this canonical URL: matched by webpageURL.
            if memberCount[node] > 0 { tags[node].insert(.webpageURL) }
            memberCount[node] += 1
            activityNodes.append(node)
        }
        for item in input.items {
            let node = itemNode(ItemRef(item))
            memberCount[node] += 1
            itemNodeOfItem.append(node)
        }
    }

    /// Joins URL keys through `rel=canonical` and redirects.
    mutating func linkURLs() {
        Self.forEachURLLink(in: input) { from, to, tag in join(urlNode(from), urlNode(to), tag: tag) }
        activityURLRoots = input.activities.indices.map { index in
            input.activities[index].urlKey.map { sets.find(urlNode($0)) }
        }
    }

    /// URL groups (after ``linkURLs()``) that hold a page public at `rules.now`.
    mutating func publicURLRoots(rules: EligibilityRules) -> Set<Int> {
        var roots = Set<Int>()
        for (index, page) in input.pages.enumerated()
        where page.isPublic && page.lastSeen + rules.expirySeconds > rules.now {
            roots.insert(sets.find(pageNodes[index]))
        }
        return roots
    }

    /// URL groups (after ``linkURLs()``) the crawler has tried: a page, or a URL it gave up on.
    mutating func crawledURLRoots() -> Set<Int> {
        var roots = Set(pageNodes.map { sets.find($0) })
        for key in input.unreachableKeys + input.robotsDisallowedKeys + input.notAssociatedKeys {
            roots.insert(sets.find(urlNode(key)))
        }
        return roots
    }

    /// URL groups (after ``linkURLs()``) holding a donated URL the crawler left unfetched because its host
    /// does not associate the app.
    mutating func notAssociatedURLRoots() -> Set<Int> {
        Set(input.notAssociatedKeys.map { sets.find(urlNode($0)) })
    }

    /// URL groups (after ``linkURLs()``) holding a URL robots.txt disallowed.
    mutating func robotsDisallowedURLRoots() -> Set<Int> {
        Set(input.robotsDisallowedKeys.map { sets.find(urlNode($0)) })
    }

    /// Joins activities to the searchable items their `relatedUniqueIdentifier` names.
    mutating func linkRecords() {
        for (index, activity) in input.activities.enumerated() {
            guard let related = activity.relatedUniqueIdentifier else { continue }
            join(activityNodes[index], itemNode(ItemRef(bundle: activity.bundleIdentifier, id: related)), tag: .related)
        }
    }

    /// The clusters that hold at least one record.
    mutating func clusters() -> [Members] {
        // Members are appended in place (an index per root): copying a cluster out of a dictionary to
        // append to it would copy its arrays each time, quadratic for a large cluster.
        var position: [Int: Int] = [:]
        var result: [Members] = []
        func slot(_ root: Int, key: String) -> Int {
            if let index = position[root] {
                result[index].key = Self.preferredKey(result[index].key, key)
                return index
            }
            position[root] = result.count
            result.append(Members(key: key))
            return result.count - 1
        }
        for (index, page) in input.pages.enumerated() {
            result[slot(sets.find(pageNodes[index]), key: page.key)].pages.append(index)
        }
        for (index, activity) in input.activities.enumerated() {
            // One kept apart from its URL's group is keyed as an app's own record: the URL key is the page's.
            let ownKey = "activity:\(activity.bundleIdentifier):\(activity.id)"
            let key = isAssociated[index] ? activity.urlKey ?? ownKey : ownKey
            let entry = slot(sets.find(activityNodes[index]), key: key)
            result[entry].activities.append(index)
            if let urlRoot = activityURLRoots[index] { result[entry].activityURLRoots[index] = urlRoot }
            if activity.urlKey != nil, !isAssociated[index] { result[entry].unassociated.insert(index) }
        }
        for (index, item) in input.items.enumerated() {
            let key = "item:\(item.bundleIdentifier):\(item.uniqueIdentifier)"
            result[slot(sets.find(itemNodeOfItem[index]), key: key)].items.append(index)
        }
        for (root, index) in position {
            let recordCount = result[index].pages.count + result[index].activities.count + result[index].items.count
            result[index].matchedBy = recordCount > 1 ? tags[root].names : []
        }
        return result
    }

    /// For each activity: whether the URL group of its `webpageURL` holds a page whose origin associates the
    /// activity's app. The groups are those of ``linkURLs()`` (canonical keys joined by `rel=canonical` and
    /// redirects), found here in a pass of their own before any activity joins one.
    private static func associatedActivities(_ input: BridgeInput) -> [Bool] {
        var groups = UnionFind(count: 0)
        var nodes: [String: Int] = [:]
        func node(_ key: String) -> Int {
            if let node = nodes[key] { return node }
            let node = groups.add()
            nodes[key] = node
            return node
        }
        forEachURLLink(in: input) { from, to, _ in groups.union(node(from), node(to)) }
        var origins: [Int: Set<String>] = [:]
        for page in input.pages {
            guard let origin = page.origin, input.associations[origin] != nil else { continue }
            origins[groups.find(node(page.key)), default: []].insert(origin)
        }
        return input.activities.map { activity in
            guard let key = activity.urlKey, let group = nodes[key] else { return false }
            let hosts = origins[groups.find(group)] ?? []
            return hosts.contains { input.associates($0, activity.bundleIdentifier) }
        }
    }

    /// The links that join canonical URL keys into groups: a page's `rel=canonical` naming another key, and
    /// each redirect, in that order, with the tag a match through them is reported as.
    private static func forEachURLLink(in input: BridgeInput, _ body: (String, String, Tags) -> Void) {
        for page in input.pages {
            guard let target = page.canonicalKey, target != page.key else { continue }
            body(page.key, target, .canonical)
        }
        for redirect in input.redirects { body(redirect.fromKey, redirect.toKey, .redirect) }
    }

    /// URL keys (`http…`) before identifier keys, then the smaller.
    private static func preferredKey(_ a: String, _ b: String) -> String {
        let aURL = a.hasPrefix("http")
        let bURL = b.hasPrefix("http")
        if aURL != bURL { return aURL ? a : b }
        return min(a, b)
    }

    private mutating func join(_ a: Int, _ b: Int, tag: Tags) {
        let rootA = sets.find(a)
        let rootB = sets.find(b)
        guard rootA != rootB else { return }
        let isMatch = memberCount[rootA] > 0 && memberCount[rootB] > 0
        let (root, _) = sets.union(rootA, rootB)
        let other = root == rootA ? rootB : rootA
        memberCount[root] += memberCount[other]
        tags[root].formUnion(tags[other])
        if isMatch { tags[root].insert(tag) }
    }

    private mutating func newNode() -> Int {
        let node = sets.add()
        memberCount.append(0)
        tags.append([])
        return node
    }

    private mutating func urlNode(_ key: String) -> Int {
        if let node = urlNodes[key] { return node }
        let node = newNode()
        urlNodes[key] = node
        return node
    }

    private mutating func itemNode(_ ref: ItemRef) -> Int {
        if let node = itemNodes[ref] { return node }
        let node = newNode()
        itemNodes[ref] = node
        return node
    }
}
