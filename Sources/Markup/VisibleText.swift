/// Collects the text a reader sees, for snippets: no scripts, styles, templates, hidden
/// elements or navigation, white space collapsed, bounded in size.
///
/// Text inside `<main>` or `<article>` is also kept apart: when there is enough of it,
/// it is the better snippet source than the whole page.
struct VisibleText {
    let limit: Int
    // UTF-8 bytes, turned into a String once at the end: appending scalar by scalar to a String
    // and asking Unicode properties of every scalar was a third of a crawl's CPU time.
    private var all: [UInt8] = []
    private var main: [UInt8] = []
    /// The Unicode scalars in `all` and `main`, kept as counts (the limit is in scalars).
    private var allCount = 0
    private var mainCount = 0
    private var pendingSpace = false
    private var pendingMainSpace = false
    /// Whether an element ended and no visible text came after it yet.
    private var afterElementEnd = false

    init(limit: Int) {
        self.limit = limit
    }

    /// What an element's name says about its text: looked up once per element (one hash of the name),
    /// then carried to where the element ends.
    struct ElementTraits: OptionSet {
        let rawValue: UInt8
        /// Its content is never visible text.
        static let invisible = ElementTraits(rawValue: 1 << 0)
        /// Page furniture (navigation and the like), skipped outside `<main>`/`<article>`.
        static let boilerplate = ElementTraits(rawValue: 1 << 1)
        /// Browsers lay it out as a block, list item or table part, or it is a line break: it separates words.
        static let block = ElementTraits(rawValue: 1 << 2)
        /// `<main>` or `<article>`: its text is the main content.
        static let main = ElementTraits(rawValue: 1 << 3)
    }

    /// The traits of the elements that have any, by (lowercase) name.
    static let traitsByName: [String: ElementTraits] = {
        var traits: [String: ElementTraits] = [:]
        for name in [
            "script", "style", "noscript", "template", "head", "title", "svg", "math", "iframe", "object", "embed",
            "canvas", "select", "option", "button", "textarea", "datalist", "dialog",
        ] {
            traits[name, default: []].insert(.invisible)
        }
        for name in ["nav", "footer", "aside", "header", "form", "menu"] {
            traits[name, default: []].insert(.boilerplate)
        }
        // The HTML standard's rendering section, and the line breaks.
        for name in [
            "html", "body", "p", "div", "br", "hr", "li", "ul", "ol", "dl", "dt", "dd", "dir", "menu", "h1", "h2",
            "h3", "h4", "h5", "h6", "hgroup", "header", "footer", "nav", "aside", "section", "article", "main",
            "search", "address", "blockquote", "center", "pre", "listing", "plaintext", "xmp", "figure",
            "figcaption", "form", "fieldset", "legend", "details", "summary", "dialog", "table", "caption",
            "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th",
        ] {
            traits[name, default: []].insert(.block)
        }
        for name in ["main", "article"] { traits[name, default: []].insert(.main) }
        return traits
    }()
    private static let hiddenRoles: Set<String> = ["navigation", "banner", "contentinfo", "menu", "menubar", "search"]

    /// Whether `node`, an element with `traits`, hides its content from the snippet.
    static func hides(_ node: HTMLNode, traits: ElementTraits, inMain: Bool) -> Bool {
        if traits.contains(.invisible) { return true }
        if !inMain && traits.contains(.boilerplate) { return true }
        guard node.hasAttributes else { return false }
        if node.hasAttribute("hidden") || node.attribute("aria-hidden")?.lowercased() == "true" { return true }
        if let role = node.attribute("role")?.lowercased(), hiddenRoles.contains(role) { return true }
        if let style = node.attribute("style")?.lowercased().filter({ !$0.isWhitespace }),
            style.contains("display:none") || style.contains("visibility:hidden")
        {
            return true
        }
        return false
    }

    /// Whether `name` separates words (a block element or a line break).
    static func isBlock(_ name: String) -> Bool { traitsByName[name]?.contains(.block) ?? false }

    /// An element starts. A block element always separates words, as browsers lay it out apart.
    /// Any other element separates them only when it comes right after the end of another, with no
    /// text between: `<a>x</a><a>y</a>` and `<span>a</span><span>b</span>` are two words, while
    /// inline formatting touching text (`<b>W</b>ord`, `W<b>ord</b>`) stays one.
    mutating func elementStarts(_ traits: ElementTraits, inMain: Bool) {
        if afterElementEnd || traits.contains(.block) { breakWord(inMain: inMain) }
        afterElementEnd = false
    }

    /// An element ends: a block element separates words from what follows it.
    mutating func elementEnds(_ traits: ElementTraits, inMain: Bool) {
        if traits.contains(.block) { breakWord(inMain: inMain) }
        afterElementEnd = true
    }

    /// Adds a text node's text.
    mutating func append(_ text: String, inMain: Bool) {
        var text = text
        text.withUTF8 { append($0, inMain: inMain) }
    }

    /// Adds a text node's text, as UTF-8 bytes (libxml2's, which are valid UTF-8).
    ///
    /// Words separated by exactly one space come out as they came in, so such a run is appended in one
    /// piece (most prose is one run per line); a run that does not fit under the limit goes word by word.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, inMain: Bool) {
        if !bytes.isEmpty { afterElementEnd = false }
        guard allCount < limit || (inMain && mainCount < limit) else { return }
        var index = 0
        while index < bytes.count {
            if let length = UTF8WhiteSpace.length(bytes, at: index) {
                pendingSpace = true
                if inMain { pendingMainSpace = true }
                index += length
                continue
            }
            // A run: words up to white space that is not a single space between two words.
            var end = index
            var scalars = 0
            while end < bytes.count {
                // Printable ASCII, most of any text: one scalar, never white space.
                if bytes[end] > 0x20 && bytes[end] < 0x80 {
                    end += 1
                    scalars += 1
                } else if UTF8WhiteSpace.length(bytes, at: end) == nil {
                    end += UTF8WhiteSpace.scalarLength(bytes[end])
                    scalars += 1
                } else if bytes[end] == 0x20, end + 1 < bytes.count, UTF8WhiteSpace.length(bytes, at: end + 1) == nil {
                    end += 1
                    scalars += 1
                } else {
                    break
                }
            }
            let run = UnsafeBufferPointer(rebasing: bytes[index..<min(end, bytes.count)])
            Self.add(run: run, scalars: scalars, to: &all, count: &allCount, space: pendingSpace, limit: limit)
            pendingSpace = false
            if inMain {
                Self.add(
                    run: run, scalars: scalars, to: &main, count: &mainCount, space: pendingMainSpace, limit: limit)
                pendingMainSpace = false
            }
            index = end
        }
    }

    /// Appends `run` (words separated by single spaces, `scalars` scalars in all) as ``add(_:scalars:to:count:space:limit:)``
    /// would word by word: at once when it fits, else one word at a time up to the limit.
    private static func add(
        run: UnsafeBufferPointer<UInt8>, scalars: Int, to text: inout [UInt8], count: inout Int, space: Bool,
        limit: Int
    ) {
        let separator = space && count > 0 ? 1 : 0
        guard count + separator + scalars > limit else {
            // It fits: one piece, as a word would be.
            add(run, scalars: scalars, to: &text, count: &count, space: space, limit: limit)
            return
        }
        var start = 0
        var wordSpace = space
        while start < run.count, count < limit {
            var end = start
            var wordScalars = 0
            while end < run.count, run[end] != 0x20 {
                end += UTF8WhiteSpace.scalarLength(run[end])
                wordScalars += 1
            }
            let word = UnsafeBufferPointer(rebasing: run[start..<min(end, run.count)])
            add(word, scalars: wordScalars, to: &text, count: &count, space: wordSpace, limit: limit)
            wordSpace = true
            start = end + 1
        }
    }

    /// Appends `word` (`scalars` scalars), after a space when `space` is set and `text` is not
    /// empty, unless that would take `text` past `limit` scalars: then as much of the word as fits,
    /// and `text` is full.
    private static func add(
        _ word: UnsafeBufferPointer<UInt8>, scalars: Int, to text: inout [UInt8], count: inout Int, space: Bool,
        limit: Int
    ) {
        guard count < limit, scalars > 0 else { return }
        let separator = space && count > 0 ? 1 : 0
        if count + separator + scalars <= limit {
            if separator == 1 { text.append(0x20) }
            text.append(contentsOf: word)
            count += separator + scalars
            return
        }
        // The word does not fit: keep whole scalars up to the limit (the space only together with
        // the first of them), then the text is full.
        var index = 0
        var needed = separator + 1
        while index < word.count, count + needed <= limit {
            if needed == 2 { text.append(0x20) }
            let length = UTF8WhiteSpace.scalarLength(word[index])
            text.append(contentsOf: word[index..<min(index + length, word.count)])
            index += length
            count += needed
            needed = 1
        }
        count = limit
    }

    /// Marks a word boundary.
    mutating func breakWord(inMain: Bool) {
        pendingSpace = true
        if inMain { pendingMainSpace = true }
    }

    /// The main content's text when there is enough of it, else all visible text.
    var result: String {
        UTF8Validation.string(mainCount >= 200 ? main : all)
    }
}
