/// The XML formats' grammar, fed one parser event at a time: finds the format from the root element, then
/// each entry (`<url>`, `<sitemap>`, `<item>`, `<entry>`) and its URL and date, and hands them to the
/// collector. Pure Swift, no libxml2: ``SitemapXMLReader`` turns the nodes into these calls.
///
/// Namespace-lenient: a root element in an unexpected namespace gets an issue and is read anyway. Entry
/// fields are matched by local name among the entry's direct children in the entry's own namespace, so
/// extension elements (`<image:loc>`, `<video:player_loc>`, `<atom:link>` in RSS) never count.
struct SitemapEntryScanner {
    /// An element as the reader met it.
    struct Element {
        var localName: String
        var namespace: String?
        var depth: Int
        var line: Int?
        /// `href` and `rel`, read for `<link>` elements only (Atom's entry link).
        var href: String? = nil
        var rel: String? = nil
    }

    /// The entry fields the formats read: the URL (`loc`, `link`), the date (`lastmod`, `pubDate`,
    /// `updated`), Atom's fallback date (`published`) and RSS's fallback URL (`guid`).
    enum Field { case location, lastModified, published, guid }

    /// An entry whose end tag has not been seen yet.
    struct OpenEntry {
        let depth: Int
        let namespace: String?
        let line: Int?
        var location: String?
        var locationLine: Int?
        /// Whether the URL held an unexpanded entity reference (and so is not kept).
        var locationHasEntity = false
        var lastModified: String?
        var published: String?
        var guid: String?
        /// Text directly inside the entry: a `<sitemap>` without `<loc>` sometimes holds its URL that way.
        var ownText = ""
    }

    /// Where entries and issues go.
    var collector: SitemapCollector
    /// Whether nothing more is wanted: an unknown root, the root's end, or the URL limit reached.
    var isDone: Bool { stopped || collector.isFull }

    private var stopped = false
    private var rootNamespace: String?
    // The state below is read and written by `SitemapEntryScanner+Fields.swift` too, hence not private.
    /// The entry being read, from its start tag to its end tag.
    var entry: OpenEntry?
    /// The field of `entry` being read (`<loc>`, `<lastmod>`, …), with its element's depth and line.
    var field: (kind: Field, depth: Int, line: Int?)?
    /// The text of `field` so far, at most `textCapacity` bytes (plus one text node).
    var fieldText = ""
    /// Whether an unexpanded entity reference fell inside the open field.
    var fieldHasEntity = false
    /// Text kept per field: enough to tell a too-long URL, never a whole oversized text node.
    private let textCapacity: Int

    init(collector: SitemapCollector) {
        self.collector = collector
        textCapacity = collector.limits.maxURLLength + 256
    }

    /// Whether the text of a node at `depth` is wanted (in a field, or directly inside an entry).
    /// `isWhitespace` for a node of white space only: directly inside an entry, before any other text of
    /// it, it is not (an entry's own text is trimmed), which spares a pretty-printed sitemap a string per
    /// line.
    func wantsText(atDepth depth: Int, isWhitespace: Bool = false) -> Bool {
        if field != nil { return true }
        guard let entry, depth == entry.depth + 1 else { return false }
        return !isWhitespace || !entry.ownText.isEmpty
    }

    /// An element's start tag (an empty element, `<x/>`, is a start and an end as well).
    mutating func start(_ element: Element) {
        if element.depth == 0 {
            startRoot(element)
        } else if let entry, field == nil, element.depth == entry.depth + 1, element.namespace == entry.namespace {
            startField(element)
        } else if entry == nil, isEntry(element) {
            entry = OpenEntry(depth: element.depth, namespace: element.namespace, line: element.line)
        }
    }

    /// Text or CDATA of a node at `depth` (only called when ``wantsText(atDepth:)``).
    mutating func text(_ value: String, atDepth depth: Int) {
        if field != nil {
            if fieldText.utf8.count < textCapacity { fieldText += value }
        } else if entry != nil, entry?.ownText.utf8.count ?? 0 < textCapacity {
            entry?.ownText += value
        }
    }

    /// An entity reference left unexpanded (entities are never substituted): an issue, and a field it
    /// falls in loses its value, which would otherwise be the text around the reference only.
    mutating func entityReference(named name: String, line: Int?) {
        collector.note(
            .entityNotExpanded, "&\(name); left unexpanded: entities are never substituted or loaded", line: line)
        if field != nil { fieldHasEntity = true }
    }

    /// An end tag (or the end of an empty element) at `depth`.
    mutating func end(depth: Int) {
        if let open = field, open.depth == depth {
            closeField(open.kind, line: open.line)
        } else if let open = entry, open.depth == depth, field == nil {
            entry = nil
            finish(open)
        } else if depth == 0 {
            stopped = true
        }
    }

    /// The end of input before the document's end: a fatal error or a limit cut it. A field still open
    /// may hold a cut-off value (`https://example.com/pa`), so it is dropped; an entry still open is kept
    /// only if its URL was complete.
    mutating func endOfInput() {
        field = nil
        fieldText = ""
        fieldHasEntity = false
        guard let open = entry else { return }
        entry = nil
        if open.location != nil {
            finish(open)
        } else {
            let name = Self.entryElementName(collector.sitemap.format)
            collector.note(
                .missingURL, "<\(name)> cut short before its URL was complete: not kept", line: open.line)
        }
    }

    private mutating func startRoot(_ element: Element) {
        let expected: String?
        switch element.localName {
        case "urlset":
            collector.setFormat(.urlSet)
            expected = Self.sitemapsNamespace
        case "sitemapindex":
            collector.setFormat(.sitemapIndex)
            expected = Self.sitemapsNamespace
        case "feed":
            collector.setFormat(.atom)
            expected = Self.atomNamespace
        case "rss", "RDF":
            collector.setFormat(.rss)
            expected = nil
        default:
            let name = element.localName
            collector.note(
                .unknownFormat, "the root element <\(name)> is not urlset, sitemapindex, rss, rdf:RDF or feed",
                line: element.line)
            stopped = true
            return
        }
        rootNamespace = element.namespace
        if let expected, element.namespace != expected {
            let found = element.namespace.map { "namespace \($0)" } ?? "no namespace"
            collector.note(
                .unexpectedNamespace, "<\(element.localName)> in \(found), not \(expected); read anyway",
                line: element.line)
        }
    }

    /// Whether `element` opens an entry of the format found at the root.
    private func isEntry(_ element: Element) -> Bool {
        switch collector.sitemap.format {
        case .urlSet: element.localName == "url" && element.depth == 1 && element.namespace == rootNamespace
        case .sitemapIndex: element.localName == "sitemap" && element.depth == 1 && element.namespace == rootNamespace
        case .atom: element.localName == "entry" && element.depth == 1 && element.namespace == rootNamespace
        // RSS 2.0 has rss/channel/item; RSS 1.0 has items beside the channel, in its own namespace.
        case .rss: element.localName == "item" && element.depth <= 2
        case .text, nil: false
        }
    }
}
