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

    /// Elements whose content is never visible text.
    private static let invisible: Set<String> = [
        "script", "style", "noscript", "template", "head", "title", "svg", "math", "iframe", "object", "embed",
        "canvas", "select", "option", "button", "textarea", "datalist", "dialog",
    ]
    /// Page furniture: navigation and the like, skipped outside `<main>`/`<article>`.
    private static let boilerplate: Set<String> = ["nav", "footer", "aside", "header", "form", "menu"]
    private static let hiddenRoles: Set<String> = ["navigation", "banner", "contentinfo", "menu", "menubar", "search"]
    /// The elements browsers lay out as blocks, list items or table parts (the HTML standard's
    /// rendering section), and the line breaks.
    private static let blocks: Set<String> = [
        "html", "body", "p", "div", "br", "hr", "li", "ul", "ol", "dl", "dt", "dd", "dir", "menu", "h1", "h2", "h3",
        "h4", "h5", "h6", "hgroup", "header", "footer", "nav", "aside", "section", "article", "main", "search",
        "address", "blockquote", "center", "pre", "listing", "plaintext", "xmp", "figure", "figcaption", "form",
        "fieldset", "legend", "details", "summary", "dialog", "table", "caption", "colgroup", "col", "thead",
        "tbody", "tfoot", "tr", "td", "th",
    ]

    /// Whether `node` hides its content from the snippet.
    static func hides(_ node: HTMLNode, name: String, inMain: Bool) -> Bool {
        if invisible.contains(name) { return true }
        if !inMain && boilerplate.contains(name) { return true }
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
    static func isBlock(_ name: String) -> Bool { blocks.contains(name) }

    /// An element starts. A block element always separates words, as browsers lay it out apart.
    /// Any other element separates them only when it comes right after the end of another, with no
    /// text between: `<a>x</a><a>y</a>` and `<span>a</span><span>b</span>` are two words, while
    /// inline formatting touching text (`<b>W</b>ord`, `W<b>ord</b>`) stays one.
    mutating func elementStarts(_ name: String, inMain: Bool) {
        if afterElementEnd || Self.isBlock(name) { breakWord(inMain: inMain) }
        afterElementEnd = false
    }

    /// An element ends: a block element separates words from what follows it.
    mutating func elementEnds(_ name: String, inMain: Bool) {
        if Self.isBlock(name) { breakWord(inMain: inMain) }
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
            if let length = Self.whitespaceLength(bytes, at: index) {
                pendingSpace = true
                if inMain { pendingMainSpace = true }
                index += length
                continue
            }
            // A run: words up to white space that is not a single space between two words.
            var end = index
            var scalars = 0
            while end < bytes.count {
                if Self.whitespaceLength(bytes, at: end) == nil {
                    end += Self.scalarLength(bytes[end])
                    scalars += 1
                } else if bytes[end] == 0x20, end + 1 < bytes.count, Self.whitespaceLength(bytes, at: end + 1) == nil {
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
                end += scalarLength(run[end])
                wordScalars += 1
            }
            let word = UnsafeBufferPointer(rebasing: run[start..<min(end, run.count)])
            add(word, scalars: wordScalars, to: &text, count: &count, space: wordSpace, limit: limit)
            wordSpace = true
            start = end + 1
        }
    }

    /// The length in bytes of a UTF-8 sequence starting with `lead` (the text is valid UTF-8).
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// The byte length of the white-space scalar at `index` (Unicode White_Space: ASCII tab to
    /// carriage return and space, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029,
    /// U+202F, U+205F, U+3000), or `nil` when the scalar there is not white space.
    private static func whitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return lead == 0x20 || (0x09...0x0D).contains(lead) ? 1 : nil }
        guard index + 1 < bytes.count else { return nil }
        let second = bytes[index + 1]
        switch lead {
        case 0xC2:
            return second == 0x85 || second == 0xA0 ? 2 : nil
        case 0xE1, 0xE2, 0xE3:
            guard index + 2 < bytes.count else { return nil }
            let third = bytes[index + 2]
            switch (lead, second) {
            case (0xE1, 0x9A): return third == 0x80 ? 3 : nil
            case (0xE2, 0x80): return (0x80...0x8A).contains(third) || [0xA8, 0xA9, 0xAF].contains(third) ? 3 : nil
            case (0xE2, 0x81): return third == 0x9F ? 3 : nil
            case (0xE3, 0x80): return third == 0x80 ? 3 : nil
            default: return nil
            }
        default:
            return nil
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
            let length = scalarLength(word[index])
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
        String(decoding: mainCount >= 200 ? main : all, as: UTF8.self)
    }
}

extension String {
    /// The string with runs of white space turned into one space and the ends trimmed.
    func collapsingWhitespace() -> String {
        var result = ""
        var pendingSpace = false
        for scalar in unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = true
            } else {
                if pendingSpace && !result.isEmpty { result.unicodeScalars.append(" ") }
                result.unicodeScalars.append(scalar)
                pendingSpace = false
            }
        }
        return result
    }
}
