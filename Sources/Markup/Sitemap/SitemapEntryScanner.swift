/// The XML formats' grammar, fed one parser event at a time: finds the format from the root element, then
/// each entry (`<url>`, `<sitemap>`, `<item>`, `<entry>`) and its URL and date, and hands them to the
/// collector. Pure Swift, no libxml2: ``SitemapXMLReader`` turns the parser's callbacks into these calls.
///
/// Namespace-lenient: a root element in an unexpected namespace gets an issue and is read anyway. Entry
/// fields are matched by local name among the entry's direct children in the entry's own namespace, so
/// extension elements (`<image:loc>`, `<video:player_loc>`, `<atom:link>` in RSS) never count.
///
/// Built for a sitemap of 50,000 entries read again in every refresh: an element is a ``Name`` and a few
/// numbers (no string, nothing to retain when it is passed on), text is gathered as bytes and becomes a
/// string once per field, and the open entry's position is kept apart from its values, which are only
/// touched when a field ends.
struct SitemapEntryScanner {
    /// An element as the reader met it: its name, its namespace (by the reader's number for the namespace
    /// URI, 0 for none; one URI, one number), its depth (the root's is 0) and its line.
    struct Element {
        var name: Name
        var namespace: Int
        var depth: Int
        var line: Int?
    }

    /// The `href` and `rel` attributes of a `<link>` (Atom's entry link).
    struct LinkAttributes {
        var href: String?
        var rel: String?
    }

    /// The entry fields the formats read: the URL (`loc`, `link`), the date (`lastmod`, `pubDate`,
    /// `updated`), Atom's fallback date (`published`) and RSS's fallback URL (`guid`).
    enum Field: UInt8 { case location = 1, lastModified = 2, published = 4, guid = 8 }

    /// A set of fields, as bits.
    struct Fields {
        private var bits: UInt8 = 0
        func contains(_ field: Field) -> Bool { bits & field.rawValue != 0 }
        mutating func insert(_ field: Field) { bits |= field.rawValue }
    }

    /// Where an open entry is: its element's depth, namespace and line.
    struct EntryPosition {
        var depth: Int
        var namespace: Int
        var line: Int?
    }

    /// What an entry said so far: the text of each field it had, as bytes (the first of each kind wins).
    /// The buffers outlive the entry and are reused, so reading an entry allocates nothing.
    struct EntryValues {
        /// The fields the entry had.
        var found = Fields()
        var location: [UInt8] = []
        var locationLine: Int?
        /// Whether the URL held an unexpanded entity reference (and so is not kept).
        var locationHasEntity = false
        var lastModified: [UInt8] = []
        var published: [UInt8] = []
        var guid: [UInt8] = []

        /// The text of `field`; `nil` when the entry had none.
        func text(_ field: Field) -> [UInt8]? {
            guard found.contains(field) else { return nil }
            switch field {
            case .location: return location
            case .lastModified: return lastModified
            case .published: return published
            case .guid: return guid
            }
        }

        /// Ready for the next entry, keeping the buffers.
        mutating func reset() {
            found = Fields()
            locationLine = nil
            locationHasEntity = false
        }
    }

    /// Where entries and issues go.
    var collector: SitemapCollector
    /// Whether nothing more is wanted: an unknown root, the root's end, or the URL limit reached.
    var isDone: Bool { stopped || collector.isFull }

    private var stopped = false
    private var rootNamespace = 0
    // The state below is read and written by `SitemapEntryScanner+Fields.swift` too, hence not private.
    /// The format found at the root (the collector's, kept here to be read at every element).
    var format: SitemapFormat?
    /// The entry being read, from its start tag to its end tag; `nil` between entries.
    var entry: EntryPosition?
    /// The values of `entry`.
    var values = EntryValues()
    /// Text directly inside the entry, as bytes: a `<sitemap>` without `<loc>` sometimes holds its URL that way.
    var entryText: [UInt8] = []
    /// The field of `entry` being read (`<loc>`, `<lastmod>`, …), with its element's depth and line.
    var field: (kind: Field, depth: Int, line: Int?)?
    /// The text of `field` so far, as bytes: at most `textCapacity` of them (plus one run of text).
    var fieldText: [UInt8] = []
    /// Whether an unexpanded entity reference fell inside the open field.
    var fieldHasEntity = false
    /// Bytes of text kept per field: enough to tell a too-long URL, never a whole oversized text node.
    let textCapacity: Int

    init(collector: SitemapCollector) {
        self.collector = collector
        textCapacity = collector.limits.maxURLLength + 256
        fieldText.reserveCapacity(256)
    }

    /// Whether the text of a node at `depth` is wanted (in a field, or directly inside an entry).
    /// `isWhitespace` for a node of white space only: directly inside an entry, before any other text of
    /// it, it is not (an entry's own text is trimmed), which spares a pretty-printed sitemap a copy per
    /// line.
    func wantsText(atDepth depth: Int, isWhitespace: Bool = false) -> Bool {
        if field != nil { return true }
        guard let entry, depth == entry.depth + 1 else { return false }
        return !isWhitespace || !entryText.isEmpty
    }

    /// The start tag of an element below the root (an empty element, `<x/>`, is a start and an end as
    /// well); `link` holds a `<link>`'s attributes.
    mutating func start(_ element: Element, link: LinkAttributes? = nil) {
        if let entry {
            if field == nil, element.depth == entry.depth + 1, element.namespace == entry.namespace {
                startField(element, link: link)
            }
        } else if isEntry(element) {
            entry = EntryPosition(depth: element.depth, namespace: element.namespace, line: element.line)
            values.reset()
            entryText.removeAll(keepingCapacity: true)
        }
    }

    /// A run of text or CDATA of a node at `depth` (only called when ``wantsText(atDepth:isWhitespace:)``),
    /// at most ``textCapacity`` bytes of it kept.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>, atDepth depth: Int) {
        if field != nil {
            if fieldText.count < textCapacity { fieldText.append(contentsOf: bytes.prefix(textCapacity)) }
        } else if entry != nil, entryText.count < textCapacity {
            entryText.append(contentsOf: bytes.prefix(textCapacity))
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
        } else if field == nil, let open = entry, open.depth == depth {
            entry = nil
            finishEntry(at: open)
        } else if depth == 0 {
            stopped = true
        }
    }

    /// The end of input before the document's end: a fatal error or a limit cut it. A field still open
    /// may hold a cut-off value (`https://example.com/pa`), so it is dropped; an entry still open is kept
    /// only if its URL was complete.
    mutating func endOfInput() {
        field = nil
        fieldText.removeAll()
        fieldHasEntity = false
        guard let open = entry else { return }
        entry = nil
        if values.found.contains(.location) {
            finishEntry(at: open)
        } else {
            let name = Self.entryElementName(format)
            collector.note(
                .missingURL, "<\(name)> cut short before its URL was complete: not kept", line: open.line)
        }
    }

    /// The root element, with its local name and namespace URI as written.
    mutating func startRoot(_ element: Element, spelling: String, namespaceURI: String?) {
        let expected: String?
        switch element.name {
        case .urlset:
            format = .urlSet
            expected = Self.sitemapsNamespace
        case .sitemapindex:
            format = .sitemapIndex
            expected = Self.sitemapsNamespace
        case .feed:
            format = .atom
            expected = Self.atomNamespace
        case .rss, .rdf:
            format = .rss
            expected = nil
        default:
            collector.note(
                .unknownFormat, "the root element <\(spelling)> is not urlset, sitemapindex, rss, rdf:RDF or feed",
                line: element.line)
            stopped = true
            return
        }
        if let format { collector.setFormat(format) }
        rootNamespace = element.namespace
        if let expected, namespaceURI != expected {
            let found = namespaceURI.map { "namespace \($0)" } ?? "no namespace"
            collector.note(
                .unexpectedNamespace, "<\(spelling)> in \(found), not \(expected); read anyway", line: element.line)
        }
    }

    /// Whether `element` opens an entry of the format found at the root.
    private func isEntry(_ element: Element) -> Bool {
        switch format {
        case .urlSet: element.name == .url && element.depth == 1 && element.namespace == rootNamespace
        case .sitemapIndex: element.name == .sitemap && element.depth == 1 && element.namespace == rootNamespace
        case .atom: element.name == .entry && element.depth == 1 && element.namespace == rootNamespace
        // RSS 2.0 has rss/channel/item; RSS 1.0 has items beside the channel, in its own namespace.
        case .rss: element.name == .item && element.depth <= 2
        case .text, nil: false
        }
    }
}
