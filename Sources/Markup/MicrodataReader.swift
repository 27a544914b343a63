/// The W3C microdata algorithm over a parsed tree
/// (https://html.spec.whatwg.org/multipage/microdata.html#associating-names-with-items).
///
/// Top-level items are elements with `itemscope` and no `itemprop`. An item's properties
/// are found by crawling its subtree and the elements its `itemref` names, stopping at
/// nested items, then sorted into tree order. Cycles (an `itemref` back to an ancestor)
/// and absurd nesting are cut off.
struct MicrodataReader {
    private let elementsByID: [String: HTMLNode]
    private let order: [NodeKey: Int]
    private let resolver: URLResolver
    private static let maxDepth = 32

    init(walker: PageWalker) {
        elementsByID = walker.elementsByID
        order = walker.order
        resolver = walker.resolver
    }

    /// The most property values one page may expand into. `itemref` lets an item be reached
    /// along many paths, and each path copies it: a chain of items that each reference two
    /// others doubles per level. So does an item under several names (`itemprop="a b"`): each
    /// name holds a copy. Values are counted as expanded, copies included. A real page has a
    /// few hundred values.
    static let maxValues = 20_000

    /// Every top-level item, in tree order, and whether the value budget cut some off.
    func items(in root: HTMLNode) -> (items: [MicrodataItem], truncated: Bool) {
        var items: [MicrodataItem] = []
        var budget = Self.maxValues
        var stack = [root]
        while let node = stack.popLast() {
            guard node.isElement else { continue }
            if node.hasAttribute("itemscope") && !node.hasAttribute("itemprop") {
                var visiting: Set<NodeKey> = []
                items.append(item(node, visiting: &visiting, depth: 0, budget: &budget).item)
            }
            stack.append(contentsOf: node.children.reversed())
        }
        return (items, budget <= 0)
    }

    /// The item `element` starts, and its size: the property values it holds, nested ones and
    /// copies included, as `budget` was charged for them.
    private func item(
        _ element: HTMLNode, visiting: inout Set<NodeKey>, depth: Int, budget: inout Int
    ) -> (item: MicrodataItem, size: Int) {
        visiting.insert(NodeKey(element))
        defer { visiting.remove(NodeKey(element)) }
        let types = (element.attribute("itemtype") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        let id = element.attribute("itemid").flatMap { resolver.resolve($0) }
        var result = MicrodataItem(types: types, id: id)
        var size = 0
        for property in propertyElements(of: element) {
            let names = (property.attribute("itemprop") ?? "").split(whereSeparator: \.isWhitespace)
            guard !names.isEmpty, budget > 0 else { continue }
            budget -= 1
            let value: StructuredValue<MicrodataItem>
            // The value and everything nested in it: what each further name's copy costs.
            var valueSize = 1
            if property.hasAttribute("itemscope") {
                // A nested item that is also an ancestor would recurse forever: record its types only.
                if visiting.contains(NodeKey(property)) || depth >= Self.maxDepth {
                    value = .text("")
                } else {
                    let nested = item(property, visiting: &visiting, depth: depth + 1, budget: &budget)
                    value = .item(nested.item)
                    valueSize += nested.size
                }
            } else {
                value = self.value(of: property)
            }
            for (index, name) in names.enumerated() {
                // The first copy is paid for; a further one only while the budget covers all of it.
                if index > 0 {
                    guard budget >= valueSize else {
                        budget = 0
                        break
                    }
                    budget -= valueSize
                }
                result.properties.append(MicrodataProperty(name: String(name), value: value))
                size += valueSize
            }
        }
        return (result, size)
    }

    /// The crawl of the spec: children of the item and `itemref` targets, not descending
    /// into nested items, each element once, sorted into tree order.
    private func propertyElements(of root: HTMLNode) -> [HTMLNode] {
        var pending: [HTMLNode] = Array(root.children.filter(\.isElement))
        for id in (root.attribute("itemref") ?? "").split(whereSeparator: \.isWhitespace) {
            if let target = elementsByID[String(id)] { pending.append(target) }
        }
        var seen: Set<NodeKey> = [NodeKey(root)]
        var found: [HTMLNode] = []
        while let element = pending.popLast() {
            guard seen.insert(NodeKey(element)).inserted else { continue }
            if element.hasAttribute("itemprop") { found.append(element) }
            if !element.hasAttribute("itemscope") {
                pending.append(contentsOf: element.children.filter(\.isElement))
            }
        }
        return found.sorted { (order[NodeKey($0)] ?? 0) < (order[NodeKey($1)] ?? 0) }
    }

    /// The property value of a non-item element, by element name.
    private func value(of element: HTMLNode) -> StructuredValue<MicrodataItem> {
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
