package import StrictJSON

/// Everything one parse of a page found: the raw material for a searchable item.
///
/// A plain value: the libxml2 tree it came from is gone by the time you hold it. URLs are
/// absolute, resolved against `<base href>` and the page URL.
package struct PageMarkup: Sendable, Hashable {
    /// The URL the page was fetched from (or mapped onto, offline).
    package var url: String
    /// The URL relative references resolve against: `<base href>` if present (and at most
    /// ``PageExtractor/maxURLLength`` bytes once resolved), else ``url``.
    package var baseURL: String
    /// The text of the first `<title>`, white space collapsed.
    package var title: String?
    /// Every `<meta>` with a name, property, http-equiv or charset, in document order.
    package var metaTags: [MetaTag]
    /// Every `<link rel>` among the first ``PageExtractor/maxLinkTags``, except those longer
    /// than ``PageExtractor/maxURLLength`` bytes once resolved (counted in ``issues``).
    package var linkTags: [LinkTag]
    /// Every `<a href>` (and `<area href>`) with an http or https target, among the first
    /// ``PageExtractor/maxLinks`` and up to ``PageExtractor/maxLinkBytes`` bytes of URLs in all,
    /// except those longer than ``PageExtractor/maxURLLength`` bytes (each bound counted in ``issues``).
    package var links: [PageLink]
    /// The references left out of ``links`` and ``linkTags`` for what they are, not for a bound:
    /// `<a href>`/`<area href>` targets that are not http or https URLs (`mailto:`,
    /// `javascript:`, …) and `<link href>` values that do not resolve. Kept so the item mapping
    /// can report the dangerous ones; at most ``PageExtractor/maxUnresolvedReferences``.
    package var unresolvedReferences: [UnresolvedReference]
    /// The text of every `<script type="application/ld+json">`, unparsed, with its line.
    package var jsonLDScripts: [ScriptText]
    /// The JSON-LD blocks that parsed (after repair), in document order; a block that did
    /// not is reported in ``issues`` with its line, and its siblings are kept.
    package var jsonLD: [JSONLDBlock]
    /// Top-level microdata items (W3C microdata algorithm).
    package var microdata: [MicrodataItem]
    /// Top-level RDFa Lite items.
    package var rdfa: [RDFaItem]
    /// The page's visible body text, white space collapsed, boilerplate (navigation,
    /// scripts, hidden elements) left out; at most ``PageExtractor/maxTextLength`` characters.
    package var text: String
    /// The robots directives of `<meta name="robots|applebot">` and `X-Robots-Tag`.
    package var robots: RobotsDirectives
    /// The page's executable scripts and whether it has an empty application root.
    package var scripts: PageScripts
    /// Problems found while reading the page; none of them stops extraction.
    package var issues: [MarkupIssue]

    /// Creates an empty result for `url`.
    package init(url: String) {
        self.url = url
        self.baseURL = url
        self.title = nil
        self.metaTags = []
        self.linkTags = []
        self.links = []
        self.unresolvedReferences = []
        self.jsonLDScripts = []
        self.jsonLD = []
        self.microdata = []
        self.rdfa = []
        self.text = ""
        self.robots = RobotsDirectives()
        self.scripts = PageScripts()
        self.issues = []
    }

    /// The `content` values of `<meta name="…">` (compared case-insensitively), in order.
    package func metaContents(name: String) -> [String] {
        let wanted = name.lowercasedIfNeeded()
        return metaTags.filter { $0.kind == .name && $0.key == wanted }.map(\.content)
    }

    /// The `content` values of `<meta property="…">`, in order.
    package func metaContents(property: String) -> [String] {
        let wanted = property.lowercasedIfNeeded()
        return metaTags.filter { $0.kind == .property && $0.key == wanted }.map(\.content)
    }

    /// The top-level JSON-LD entities of every block, `@graph` and arrays flattened.
    package var jsonLDEntities: [JSONValue] {
        JSONLD.entities(in: jsonLD)
    }

    /// The `href` of every `<link>` whose `rel` tokens include `rel`.
    package func linkTargets(rel: String) -> [String] {
        let wanted = rel.lowercasedIfNeeded()
        return linkTags.filter { $0.rel.contains(wanted) }.map(\.href)
    }
}

/// One `<meta>` element.
package struct MetaTag: Sendable, Hashable {
    /// Which attribute named it.
    package enum Kind: String, Sendable, Hashable {
        /// `name="…"` (also Twitter cards, robots, description, apple-itunes-app).
        case name
        /// `property="…"` (Open Graph, App Links).
        case property
        /// `http-equiv="…"`.
        case httpEquiv
        /// `charset="…"`.
        case charset
    }

    /// Which attribute named the tag.
    package var kind: Kind
    /// The name, property or http-equiv value, lowercased; the charset for ``Kind/charset``.
    package var key: String
    /// The `content` attribute (or the charset), as written.
    package var content: String
    /// The source line.
    package var line: Int
}

/// One `<link>` element.
package struct LinkTag: Sendable, Hashable {
    /// The `rel` tokens, lowercased.
    package var rel: [String]
    /// The absolute `href`.
    package var href: String
    /// `hreflang`, if given.
    package var hreflang: String?
    /// `type`, if given.
    package var type: String?
    /// `sizes`, if given (icons).
    package var sizes: String?
    /// The source line.
    package var line: Int
}

/// One outgoing link.
package struct PageLink: Sendable, Hashable {
    /// The absolute http or https URL.
    package var url: String
    /// Whether the link carries `rel="nofollow"` (also `ugc` and `sponsored`, which imply it).
    package var nofollow: Bool
    /// The source line.
    package var line: Int
}

/// A reference ``PageMarkup/links`` and ``PageMarkup/linkTags`` leave out, as written.
package struct UnresolvedReference: Sendable, Hashable {
    /// The element that made the reference.
    package enum Element: Sendable, Hashable {
        /// `<a href>` or `<area href>`.
        case anchor
        /// `<link rel href>`, with its `rel` tokens, lowercased.
        case link(rel: [String])
    }

    /// Which element made it.
    package var element: Element
    /// The `href` as written, cut to ``PageExtractor/maxUnresolvedReferenceLength`` characters
    /// (enough for the scheme and a readable message, never a whole `data:` URL).
    package var href: String
    /// The source line.
    package var line: Int
}

/// The text of one script element.
package struct ScriptText: Sendable, Hashable {
    /// The script's text, as written.
    package var text: String
    /// The line of the `<script>` tag.
    package var line: Int
}

/// A problem found in a page, with its place.
package struct MarkupIssue: Sendable, Hashable {
    /// A stable machine-readable kind, e.g. `"jsonld"`, `"html"`, `"charset"`, `"microdata"`.
    package var kind: String
    /// What is wrong, for a person.
    package var message: String
    /// The source line, when known.
    package var line: Int?

    /// Creates an issue.
    package init(kind: String, message: String, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
    }
}
