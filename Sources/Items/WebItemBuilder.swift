import Markup
internal import StrictJSON

/// Maps what a page's markup says onto a ``SearchableItem``, field by field as SPEC §2's
/// table orders the sources.
package struct WebItemBuilder: Sendable {
    /// The page's markup.
    package let page: PageMarkup
    /// Its schema.org entities from all three syntaxes.
    package let graph: SchemaGraph

    /// The longest generated snippet, in characters.
    package static let snippetLength = 300

    /// Creates a builder.
    package init(page: PageMarkup, graph: SchemaGraph) {
        self.page = page
        self.graph = graph
    }

    /// The item the page would publish (whether it may be published is a separate question).
    package func item() -> SearchableItem {
        mapping().item
    }

    /// The item, and what the mapping refused or doubted on the way (in field order, each once):
    /// URLs that are not allowed where they were found (``URLPolicy``) and ratings outside their
    /// scale. A refused value never reaches the item.
    package func mapping() -> (item: SearchableItem, findings: [MappingFinding]) {
        var findings: [MappingFinding] = []
        var attributes = AttributeSet()
        attributes.title = title
        attributes.contentDescription = description
        attributes.thumbnailURL = thumbnailURL(findings: &findings)
        let keywords = self.keywords
        attributes.keywords = keywords.isEmpty ? nil : keywords
        applyRating(to: &attributes, findings: &findings)
        applyCommerce(to: &attributes)
        applyPlace(to: &attributes)
        attributes.interactionCount = interactionCount
        let media = self.media(findings: &findings)
        attributes.media = media.isEmpty ? nil : media
        attributes.recipe = recipe(findings: &findings)
        let deepLinks = DeepLinkReader(page: page).deepLinks(findings: &findings)
        let searchAction = self.searchAction(findings: &findings)
        _ = page.canonicalURL(findings: &findings)
        linkFindings(into: &findings)
        let item = SearchableItem(
            uniqueIdentifier: page.url, webpageURL: page.url, sources: [.web], attributeSet: attributes,
            deepLinks: deepLinks, searchAction: searchAction)
        var seen: Set<MappingFinding> = []
        return (item, findings.filter { seen.insert($0).inserted })
    }

    // MARK: Text

    /// `og:title`, else `<title>`, else `twitter:title`.
    package var title: String? {
        firstNonEmpty(
            page.metaContents(property: "og:title") + [page.title ?? ""] + page.metaContents(name: "twitter:title"))
    }

    /// `og:description`, else `<meta name="description">`, else a snippet of the visible
    /// text — the snippet only when `nosnippet` does not forbid it.
    package var description: String? {
        if let written = firstNonEmpty(
            page.metaContents(property: "og:description") + page.metaContents(name: "description"))
        {
            return written
        }
        guard page.robots.snippet else { return nil }
        return Self.snippet(of: page.text)
    }

    /// The first `length` characters of `text`, cut at a word boundary, with an ellipsis when cut.
    package static func snippet(of text: String, length: Int = snippetLength) -> String? {
        // Collapse white space only as far as the snippet needs (one character past it tells
        // whether it was cut): the page text can be 20,000 characters.
        var collapsed = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                collapsed.append(" ")
                count += 1
                pendingSpace = false
            }
            collapsed.append(character)
            count += 1
            if count > length { break }
        }
        guard count > 0 else { return nil }
        guard count > length else { return collapsed }
        let prefix = collapsed.prefix(length)
        let cut = prefix.lastIndex(of: " ").map { prefix[..<$0] } ?? prefix
        return String(cut) + "…"
    }

    /// `<meta name="keywords">`, `article:tag` and schema.org `keywords`, deduplicated
    /// case-insensitively in that order, at most ten.
    package var keywords: [String] {
        var all: [String] = []
        for content in page.metaContents(name: "keywords") { all += content.split(separator: ",").map(String.init) }
        all += page.metaContents(property: "article:tag")
        for entity in graph.entities {
            for value in entity["keywords"]?.listValue ?? [] {
                all += (value.stringValue ?? "").split(separator: ",").map(String.init)
            }
        }
        var seen: Set<String> = []
        var result: [String] = []
        for keyword in all.map({ $0.collapsingWhitespace() }) where !keyword.isEmpty {
            if seen.insert(keyword.lowercased()).inserted { result.append(keyword) }
            if result.count == 10 { break }
        }
        return result
    }

    func firstNonEmpty(_ candidates: [String]) -> String? {
        candidates.lazy.map { $0.collapsingWhitespace() }.first { !$0.isEmpty }
    }
}
