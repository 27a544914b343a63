extension SitemapEntryScanner {
    /// The namespace of `<urlset>` and `<sitemapindex>` (https://www.sitemaps.org/protocol.html).
    static let sitemapsNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9"
    /// The namespace of Atom's `<feed>` (RFC 4287).
    static let atomNamespace = "http://www.w3.org/2005/Atom"

    /// A direct child of the open entry: the fields each format reads.
    mutating func startField(_ element: Element, link: LinkAttributes?) {
        let kind: Field?
        switch (format, element.name) {
        case (.urlSet, .loc), (.sitemapIndex, .loc), (.rss, .link): kind = .location
        case (.urlSet, .lastmod), (.sitemapIndex, .lastmod), (.rss, .pubDate), (.atom, .updated):
            kind = .lastModified
        case (.atom, .published): kind = .published
        case (.rss, .guid): kind = .guid
        case (.atom, .link):
            // The entry's page is its `alternate` link, which is also what a link without `rel` means
            // (RFC 4287 §4.2.7.2); `self`, `edit`, `enclosure` and the like are not pages.
            if let href = link?.href, link?.rel == nil || link?.rel == "alternate", !values.found.contains(.location) {
                values.found.insert(.location)
                values.location = Array(href.utf8)
                values.locationLine = element.line
            }
            kind = nil
        default: kind = nil
        }
        if let kind {
            field = (kind, element.depth, element.line)
            fieldText.removeAll(keepingCapacity: true)
            fieldHasEntity = false
        }
    }

    /// The end of the open field: its text goes to the entry (the first of each kind wins), by swapping
    /// buffers rather than copying.
    mutating func closeField(_ kind: Field, line: Int?) {
        field = nil
        if fieldHasEntity {
            // What is left around the reference is not the value the file meant.
            fieldHasEntity = false
            if kind == .location && !values.found.contains(.location) {
                values.found.insert(.location)
                values.location.removeAll(keepingCapacity: true)
                values.locationLine = line
                values.locationHasEntity = true
            }
            return
        }
        guard !values.found.contains(kind) else { return }
        values.found.insert(kind)
        switch kind {
        case .location:
            swap(&values.location, &fieldText)
            values.locationLine = line
        case .lastModified: swap(&values.lastModified, &fieldText)
        case .published: swap(&values.published, &fieldText)
        case .guid: swap(&values.guid, &fieldText)
        }
    }

    /// A complete entry at `position`: its URL to the collector, or an issue saying why there is none.
    mutating func finishEntry(at position: EntryPosition) {
        let date = values.text(.lastModified) ?? values.text(.published)
        let isChild = format == .sitemapIndex
        if values.locationHasEntity {
            collector.note(
                .invalidURL, "a URL with an unexpanded entity reference: not kept", line: values.locationLine)
            return
        }
        let line = values.locationLine ?? position.line
        if let location = values.text(.location), location.contains(where: { !$0.isASCIIWhitespace }) {
            if isChild {
                collector.add(
                    url: String(decoding: location, as: UTF8.self),
                    lastModified: date.map { String(decoding: $0, as: UTF8.self) }, line: line, isChild: true)
            } else {
                collector.add(pageURL: location, lastModified: date, line: line)
            }
            return
        }
        let dateText = date.map { String(decoding: $0, as: UTF8.self) }
        // An RSS item may name its page only by a `<guid>`; one that is a web URL will do (whatever
        // `isPermaLink` claims), a URN or UUID will not.
        if format == .rss, let guid = values.text(.guid).map({ String(decoding: $0, as: UTF8.self).trimmingSpaces() }),
            SitemapCollector.problem(with: guid) == nil
        {
            collector.add(url: guid, lastModified: dateText, line: position.line)
            return
        }
        let ownText = String(decoding: entryText, as: UTF8.self).trimmingSpaces()
        let element = Self.entryElementName(format)
        if format == .urlSet || format == .sitemapIndex, !ownText.isEmpty {
            collector.note(
                .missingURL, "<\(element)> without <loc>: its own text is taken as the URL", line: position.line)
            collector.add(url: ownText, lastModified: dateText, line: position.line, isChild: isChild)
            return
        }
        let wanted = format == .atom ? "an alternate <link href>" : format == .rss ? "<link>" : "<loc>"
        collector.note(.missingURL, "<\(element)> without \(wanted)", line: position.line)
    }

    static func entryElementName(_ format: SitemapFormat?) -> String {
        switch format {
        case .urlSet: "url"
        case .sitemapIndex: "sitemap"
        case .rss: "item"
        case .atom: "entry"
        case .text, nil: "entry"
        }
    }
}
