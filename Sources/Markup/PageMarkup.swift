public import StrictJSON

/// Everything one parse of a page found: the raw material for a searchable item.
///
/// A plain value: the libxml2 tree it came from is gone by the time you hold it. URLs are
/// absolute, resolved against `<base href>` and the page URL.
public struct PageMarkup: Sendable, Hashable {
    /// The URL the page was fetched from (or mapped onto, offline).
    public var url: String
    /// The URL relative references resolve against: `<base href>` if present (and at most
    /// ``PageExtractor/maxURLLength`` bytes once resolved), else ``url``.
    public var baseURL: String
    /// The text of the first `<title>`, white space collapsed.
    public var title: String?
    /// Every `<meta>` with a name, property, http-equiv or charset, in document order.
    public var metaTags: [MetaTag]
    /// Every `<link rel>` among the first ``PageExtractor/maxLinkTags``, except those longer
    /// than ``PageExtractor/maxURLLength`` bytes once resolved (counted in ``issues``).
    public var linkTags: [LinkTag]
    /// Every `<a href>` (and `<area href>`) with an http or https target, among the first
    /// ``PageExtractor/maxLinks`` and up to ``PageExtractor/maxLinkBytes`` bytes of URLs in all,
    /// except those longer than ``PageExtractor/maxURLLength`` bytes (each bound counted in ``issues``).
    public var links: [PageLink]
    /// The references left out of ``links`` and ``linkTags`` for what they are, not for a bound:
    /// `<a href>`/`<area href>` targets that are not http or https URLs (`mailto:`,
    /// `javascript:`, …) and `<link href>` values that do not resolve. Kept so the item mapping
    /// can report the dangerous ones; at most ``PageExtractor/maxUnresolvedReferences``.
    public var unresolvedReferences: [UnresolvedReference]
    /// The text of every `<script type="application/ld+json">`, unparsed, with its line.
    public var jsonLDScripts: [ScriptText]
    /// The JSON-LD blocks that parsed (after repair), in document order; a block that did
    /// not is reported in ``issues`` with its line, and its siblings are kept.
    public var jsonLD: [JSONLDBlock]
    /// Top-level microdata items (W3C microdata algorithm).
    public var microdata: [MicrodataItem]
    /// Top-level RDFa Lite items.
    public var rdfa: [RDFaItem]
    /// The page's visible body text, white space collapsed, boilerplate (navigation,
    /// scripts, hidden elements) left out; at most ``PageExtractor/maxTextLength`` characters.
    public var text: String
    /// The robots directives of `<meta name="robots|applebot">` and `X-Robots-Tag`.
    public var robots: RobotsDirectives
    /// Problems found while reading the page; none of them stops extraction.
    public var issues: [MarkupIssue]

    /// Creates an empty result for `url`.
    public init(url: String) {
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
        self.issues = []
    }

    /// The `content` values of `<meta name="…">` (compared case-insensitively), in order.
    public func metaContents(name: String) -> [String] {
        let wanted = name.lowercased()
        return metaTags.filter { $0.kind == .name && $0.key == wanted }.map(\.content)
    }

    /// The `content` values of `<meta property="…">`, in order.
    public func metaContents(property: String) -> [String] {
        let wanted = property.lowercased()
        return metaTags.filter { $0.kind == .property && $0.key == wanted }.map(\.content)
    }

    /// The top-level JSON-LD entities of every block, `@graph` and arrays flattened.
    public var jsonLDEntities: [JSONValue] {
        JSONLD.entities(in: jsonLD)
    }

    /// The `href` of every `<link>` whose `rel` tokens include `rel`.
    public func linkTargets(rel: String) -> [String] {
        let wanted = rel.lowercased()
        return linkTags.filter { $0.rel.contains(wanted) }.map(\.href)
    }
}

/// One `<meta>` element.
public struct MetaTag: Sendable, Hashable {
    /// Which attribute named it.
    public enum Kind: String, Sendable, Hashable {
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
    public var kind: Kind
    /// The name, property or http-equiv value, lowercased; the charset for ``Kind/charset``.
    public var key: String
    /// The `content` attribute (or the charset), as written.
    public var content: String
    /// The source line.
    public var line: Int
}

/// One `<link>` element.
public struct LinkTag: Sendable, Hashable {
    /// The `rel` tokens, lowercased.
    public var rel: [String]
    /// The absolute `href`.
    public var href: String
    /// `hreflang`, if given.
    public var hreflang: String?
    /// `type`, if given.
    public var type: String?
    /// `sizes`, if given (icons).
    public var sizes: String?
    /// The source line.
    public var line: Int
}

/// One outgoing link.
public struct PageLink: Sendable, Hashable {
    /// The absolute http or https URL.
    public var url: String
    /// Whether the link carries `rel="nofollow"` (also `ugc` and `sponsored`, which imply it).
    public var nofollow: Bool
    /// The source line.
    public var line: Int
}

/// A reference ``PageMarkup/links`` and ``PageMarkup/linkTags`` leave out, as written.
public struct UnresolvedReference: Sendable, Hashable {
    /// The element that made the reference.
    public enum Element: Sendable, Hashable {
        /// `<a href>` or `<area href>`.
        case anchor
        /// `<link rel href>`, with its `rel` tokens, lowercased.
        case link(rel: [String])
    }

    /// Which element made it.
    public var element: Element
    /// The `href` as written, cut to ``PageExtractor/maxUnresolvedReferenceLength`` characters
    /// (enough for the scheme and a readable message, never a whole `data:` URL).
    public var href: String
    /// The source line.
    public var line: Int
}

/// The text of one script element.
public struct ScriptText: Sendable, Hashable {
    /// The script's text, as written.
    public var text: String
    /// The line of the `<script>` tag.
    public var line: Int
}

/// A problem found in a page, with its place.
public struct MarkupIssue: Sendable, Hashable {
    /// A stable machine-readable kind, e.g. `"jsonld"`, `"html"`, `"charset"`, `"microdata"`.
    public var kind: String
    /// What is wrong, for a person.
    public var message: String
    /// The source line, when known.
    public var line: Int?

    /// Creates an issue.
    public init(kind: String, message: String, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
    }
}
