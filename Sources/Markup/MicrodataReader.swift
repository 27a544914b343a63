/// The W3C microdata algorithm over a parsed tree
/// (https://html.spec.whatwg.org/multipage/microdata.html#associating-names-with-items).
///
/// Top-level items are elements with `itemscope` and no `itemprop`. An item's properties
/// are found by crawling its subtree and the elements its `itemref` names, stopping at
/// nested items, then sorted into tree order. Cycles (an `itemref` back to an ancestor)
/// and absurd nesting are cut off.
///
/// One reader serves one page. `itemref` lets an item be reached along many paths, each of
/// which holds its own copy; the copies are paid for from a value budget, and the work behind
/// them is done once per element: an item element's property crawl and a property element's
/// value are remembered, so a path costs only the values it adds. What the crawls themselves
/// visit is charged to a crawl budget (many items can each `itemref` one large subtree).
/// Budgets that run out are reported in ``issues``.
struct MicrodataReader {
    /// A property element found by a crawl, with its property names (never empty).
    struct PropertyElement {
        var node: HTMLNode
        var names: [String]
    }

    private let elementsByID: [String: HTMLNode]
    /// The document order of every element, worked out when an `itemref` first needs it.
    private var order: [NodeKey: Int]?
    private var root: HTMLNode?
    private let resolver: URLResolver
    private static let maxDepth = 32

    /// The most property values one page may expand into. `itemref` lets an item be reached
    /// along many paths, and each path copies it: a chain of items that each reference two
    /// others doubles per level. So does an item under several names (`itemprop="a b"`): each
    /// name holds a copy. Values are counted as expanded, copies included. A real page has a
    /// few hundred values.
    static let maxValues = 20_000

    /// The element visits every property crawl of a page may make together, beyond two per
    /// element of the page (see ``crawlAllowance``). Without `itemref` each element is crawled
    /// once, by the item around it; a subtree that many items `itemref` is crawled once per item.
    static let baseCrawlSteps = 200_000

    /// The element visits this page's crawls may make: ``baseCrawlSteps`` plus two per element.
    let crawlAllowance: Int
    /// Problems met: a budget that ran out. At most one issue per budget.
    private(set) var issues: [MarkupIssue] = []

    private var valuesLeft = Self.maxValues
    private var crawlStepsLeft: Int
    private var crawlCutShort = false
    private var propertiesByItem: [NodeKey: [PropertyElement]] = [:]
    private var valuesByElement: [NodeKey: StructuredValue<MicrodataItem>] = [:]

    init(walker: PageWalker) {
        elementsByID = walker.elementsByID
        resolver = walker.resolver
        crawlAllowance = Self.baseCrawlSteps + 2 * walker.elementCount
        crawlStepsLeft = crawlAllowance
    }

    /// Every top-level item, in tree order. Call once per reader.
    mutating func items(in root: HTMLNode) -> [MicrodataItem] {
        self.root = root
        var items: [MicrodataItem] = []
        var stack = [root]
        while let node = stack.popLast() {
            guard node.isElement else { continue }
            if node.hasAttributes && node.hasAttribute("itemscope") && !node.hasAttribute("itemprop") {
                var visiting: Set<NodeKey> = []
                items.append(item(node, visiting: &visiting, depth: 0).item)
            }
            node.forEachChildReversed { stack.append($0) }
        }
        if valuesLeft <= 0 {
            issues.append(
                MarkupIssue(
                    kind: "microdata",
                    message: "itemref graph too large: stopped after \(Self.maxValues) property values"))
        }
        if crawlCutShort {
            issues.append(
                MarkupIssue(
                    kind: "microdata",
                    message:
                        "itemref crawl too large: stopped after \(crawlAllowance) element visits; "
                        + "items after that have no properties"))
        }
        return items
    }

    /// The item `element` starts, and its size: the property values it holds, nested ones and
    /// copies included, as the value budget was charged for them.
    private mutating func item(
        _ element: HTMLNode, visiting: inout Set<NodeKey>, depth: Int
    ) -> (item: MicrodataItem, size: Int) {
        let types = (element.attribute("itemtype") ?? "").splitOnSpaces().map(String.init)
        let id = element.attribute("itemid").flatMap { resolver.resolve($0) }
        var result = MicrodataItem(types: types, id: id)
        // Out of values, every property would be skipped: do not crawl for them.
        guard valuesLeft > 0 else { return (result, 0) }
        visiting.insert(NodeKey(element))
        defer { visiting.remove(NodeKey(element)) }
        var size = 0
        for property in propertyElements(of: element) {
            guard valuesLeft > 0 else { break }
            valuesLeft -= 1
            let value: StructuredValue<MicrodataItem>
            // The value and everything nested in it: what each further name's copy costs.
            var valueSize = 1
            if property.node.hasAttribute("itemscope") {
                // A nested item that is also an ancestor would recurse forever: record its types only.
                if visiting.contains(NodeKey(property.node)) || depth >= Self.maxDepth {
                    value = .text("")
                } else {
                    // Not remembered like the crawl: the cut-offs above make an item's expansion depend on its path.
                    let nested = item(property.node, visiting: &visiting, depth: depth + 1)
                    value = .item(nested.item)
                    valueSize += nested.size
                }
            } else {
                value = self.value(of: property.node)
            }
            for (index, name) in property.names.enumerated() {
                // The first copy is paid for; a further one only while the budget covers all of it.
                if index > 0 {
                    guard valuesLeft >= valueSize else {
                        valuesLeft = 0
                        break
                    }
                    valuesLeft -= valueSize
                }
                result.properties.append(MicrodataProperty(name: name, value: value))
                size += valueSize
            }
        }
        return (result, size)
    }

    /// The crawl of the spec: children of the item and `itemref` targets, not descending
    /// into nested items, each element once, sorted into tree order. Done once per item
    /// element; each element it visits costs one crawl step, and once the steps are spent
    /// the crawl stops where it is.
    private mutating func propertyElements(of root: HTMLNode) -> [PropertyElement] {
        if let known = propertiesByItem[NodeKey(root)] { return known }
        // A stack popped from the end: the children (pushed last to first) are crawled in tree order,
        // the `itemref` targets after them; only targets can break tree order, and then it is sorted.
        let references = (root.attribute("itemref") ?? "").splitOnSpaces()
        var pending: [HTMLNode] = references.reversed().compactMap { elementsByID[String($0)] }
        root.forEachChildReversed { if $0.isElement { pending.append($0) } }
        var seen: Set<NodeKey> = [NodeKey(root)]
        var found: [PropertyElement] = []
        while let element = pending.popLast() {
            guard seen.insert(NodeKey(element)).inserted else { continue }
            guard crawlStepsLeft > 0 else {
                crawlCutShort = true
                break
            }
            crawlStepsLeft -= 1
            // An element is a property when its `itemprop` has at least one name.
            if let itemprop = element.attribute("itemprop") {
                let names = itemprop.splitOnSpaces().map(String.init)
                if !names.isEmpty { found.append(PropertyElement(node: element, names: names)) }
            }
            if !element.hasAttribute("itemscope") {
                element.forEachChildReversed { if $0.isElement { pending.append($0) } }
            }
        }
        if !references.isEmpty {
            let order = documentOrder()
            found.sort { (order[NodeKey($0.node)] ?? 0) < (order[NodeKey($1.node)] ?? 0) }
        }
        propertiesByItem[NodeKey(root)] = found
        return found
    }

    /// The document order of the page's elements, computed on first use.
    private mutating func documentOrder() -> [NodeKey: Int] {
        if let order { return order }
        let computed = root.map(DocumentOrder.of) ?? [:]
        order = computed
        return computed
    }

    /// The property value of a non-item element, by element name; worked out once per element.
    private mutating func value(of element: HTMLNode) -> StructuredValue<MicrodataItem> {
        if let known = valuesByElement[NodeKey(element)] { return known }
        let value = Self.value(of: element, resolver: resolver)
        valuesByElement[NodeKey(element)] = value
        return value
    }

    private static func value(of element: HTMLNode, resolver: URLResolver) -> StructuredValue<MicrodataItem> {
        func url(_ attribute: String) -> StructuredValue<MicrodataItem> {
            .url(element.attribute(attribute).flatMap { resolver.resolve($0) } ?? "")
        }
        switch element.name {
        case "meta": return .text(element.attribute("content") ?? "")
        case "audio", "embed", "iframe", "img", "source", "track", "video": return url("src")
        case "a", "area", "link": return url("href")
        case "object": return url("data")
        case "data", "meter": return .text(element.attribute("value") ?? "")
        case "time":
            if let datetime = element.attribute("datetime") { return .text(datetime) }
            return .text(element.readableText)
        default:
            // Not in the spec, but common on the web and honoured by every consumer: a
            // `content` attribute on any element overrides its text.
            if let content = element.attribute("content") { return .text(content) }
            return .text(element.readableText)
        }
    }
}
