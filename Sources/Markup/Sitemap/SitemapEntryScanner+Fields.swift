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
            if let href = link?.href, link?.rel == nil || link?.rel == "alternate", values.location == nil {
                values.location = href
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

    /// The end of the open field: its text goes to the entry (the first of each kind wins).
    mutating func closeField(_ kind: Field, line: Int?) {
        field = nil
        if fieldHasEntity {
            // What is left around the reference is not the value the file meant.
            fieldHasEntity = false
            if kind == .location && values.location == nil {
                values.location = ""
                values.locationLine = line
                values.locationHasEntity = true
            }
            return
        }
        switch kind {
        case .location:
            guard values.location == nil else { return }
            values.location = String(decoding: fieldText, as: UTF8.self)
            values.locationLine = line
        case .lastModified:
            if values.lastModified == nil { values.lastModified = String(decoding: fieldText, as: UTF8.self) }
        case .published:
            if values.published == nil { values.published = String(decoding: fieldText, as: UTF8.self) }
        case .guid:
            if values.guid == nil { values.guid = String(decoding: fieldText, as: UTF8.self) }
        }
    }

    /// A complete entry at `position`: its URL to the collector, or an issue saying why there is none.
    mutating func finishEntry(at position: EntryPosition) {
        let date = values.lastModified ?? values.published
        let isChild = format == .sitemapIndex
        if values.locationHasEntity {
            collector.note(
                .invalidURL, "a URL with an unexpanded entity reference: not kept", line: values.locationLine)
            return
        }
        if let location = values.location, !location.trimmingSpaces().isEmpty {
            collector.add(
                url: location, lastModified: date, line: values.locationLine ?? position.line, isChild: isChild)
            return
        }
        // An RSS item may name its page only by a `<guid>`; one that is a web URL will do (whatever
        // `isPermaLink` claims), a URN or UUID will not.
        if format == .rss, let guid = values.guid?.trimmingSpaces(), SitemapCollector.problem(with: guid) == nil {
            collector.add(url: guid, lastModified: date, line: position.line)
            return
        }
        let ownText = String(decoding: entryText, as: UTF8.self).trimmingSpaces()
        let element = Self.entryElementName(format)
        if format == .urlSet || format == .sitemapIndex, !ownText.isEmpty {
            collector.note(
                .missingURL, "<\(element)> without <loc>: its own text is taken as the URL", line: position.line)
            collector.add(url: ownText, lastModified: date, line: position.line, isChild: isChild)
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
