extension SitemapEntryScanner {
    /// The namespace of `<urlset>` and `<sitemapindex>` (https://www.sitemaps.org/protocol.html).
    static let sitemapsNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9"
    /// The namespace of Atom's `<feed>` (RFC 4287).
    static let atomNamespace = "http://www.w3.org/2005/Atom"

    /// A direct child of the open entry: the fields each format reads.
    mutating func startField(_ element: Element) {
        let kind: Field?
        switch (collector.sitemap.format, element.localName) {
        case (.urlSet, "loc"), (.sitemapIndex, "loc"), (.rss, "link"): kind = .location
        case (.urlSet, "lastmod"), (.sitemapIndex, "lastmod"), (.rss, "pubDate"), (.atom, "updated"): kind = .lastModified
        case (.atom, "published"): kind = .published
        case (.rss, "guid"): kind = .guid
        case (.atom, "link"):
            // The entry's page is its `alternate` link, which is also what a link without `rel` means
            // (RFC 4287 §4.2.7.2); `self`, `edit`, `enclosure` and the like are not pages.
            if let href = element.href, element.rel == nil || element.rel == "alternate", entry?.location == nil {
                entry?.location = href
                entry?.locationLine = element.line
            }
            kind = nil
        default: kind = nil
        }
        if let kind {
            field = (kind, element.depth, element.line)
            fieldText = ""
            fieldHasEntity = false
        }
    }

    /// The end of the open field: its text goes to the entry (the first of each kind wins).
    mutating func closeField(_ kind: Field, line: Int?) {
        field = nil
        let text = fieldText
        fieldText = ""
        if fieldHasEntity {
            // What is left around the reference is not the value the file meant.
            fieldHasEntity = false
            if kind == .location && entry?.location == nil {
                entry?.location = ""
                entry?.locationLine = line
                entry?.locationHasEntity = true
            }
            return
        }
        switch kind {
        case .location:
            if entry?.location == nil {
                entry?.location = text
                entry?.locationLine = line
            }
        case .lastModified: if entry?.lastModified == nil { entry?.lastModified = text }
        case .published: if entry?.published == nil { entry?.published = text }
        case .guid: if entry?.guid == nil { entry?.guid = text }
        }
    }

    /// A complete entry: its URL to the collector, or an issue saying why there is none.
    mutating func finish(_ entry: OpenEntry) {
        let format = collector.sitemap.format
        let date = entry.lastModified ?? entry.published
        let isChild = format == .sitemapIndex
        if entry.locationHasEntity {
            collector.note(.invalidURL, "a URL with an unexpanded entity reference: not kept", line: entry.locationLine)
            return
        }
        if let location = entry.location, !location.trimmingSpaces().isEmpty {
            collector.add(url: location, lastModified: date, line: entry.locationLine ?? entry.line, isChild: isChild)
            return
        }
        // An RSS item may name its page only by a `<guid>`; one that is a web URL will do (whatever
        // `isPermaLink` claims), a URN or UUID will not.
        if format == .rss, let guid = entry.guid?.trimmingSpaces(), SitemapCollector.problem(with: guid) == nil {
            collector.add(url: guid, lastModified: date, line: entry.line)
            return
        }
        let ownText = entry.ownText.trimmingSpaces()
        let element = Self.entryElementName(format)
        if format == .urlSet || format == .sitemapIndex, !ownText.isEmpty {
            collector.note(.missingURL, "<\(element)> without <loc>: its own text is taken as the URL", line: entry.line)
            collector.add(url: ownText, lastModified: date, line: entry.line, isChild: isChild)
            return
        }
        let wanted = format == .atom ? "an alternate <link href>" : format == .rss ? "<link>" : "<loc>"
        collector.note(.missingURL, "<\(element)> without \(wanted)", line: entry.line)
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
