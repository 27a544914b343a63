/// Collects the text a reader sees, for snippets: no scripts, styles, templates, hidden
/// elements or navigation, white space collapsed, bounded in size.
///
/// Text inside `<main>` or `<article>` is also kept apart: when there is enough of it,
/// it is the better snippet source than the whole page.
struct VisibleText {
    let limit: Int
    private var all = ""
    private var main = ""
    /// The Unicode scalars in `all` and `main`, kept as counts: `String.count` walks the whole
    /// string, and asking it once per text node (or per scalar) made long pages quadratic.
    private var allCount = 0
    private var mainCount = 0
    private var pendingSpace = false
    private var pendingMainSpace = false

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
    private static let blocks: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th",
        "table", "section", "article", "main", "blockquote", "pre", "figure", "figcaption", "hr", "address",
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

    /// Adds a text node's text.
    mutating func append(_ text: String, inMain: Bool) {
        guard allCount < limit || (inMain && mainCount < limit) else { return }
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = true
                if inMain { pendingMainSpace = true }
                continue
            }
            Self.add(scalar, to: &all, count: &allCount, space: pendingSpace, limit: limit)
            pendingSpace = false
            if inMain {
                Self.add(scalar, to: &main, count: &mainCount, space: pendingMainSpace, limit: limit)
                pendingMainSpace = false
            }
        }
    }

    /// Appends `scalar` to `text`, after a space when `space` is set and `text` is not empty,
    /// unless that would take `text` past `limit` scalars (which bounds its characters too):
    /// then `text` is full.
    private static func add(
        _ scalar: Unicode.Scalar, to text: inout String, count: inout Int, space: Bool, limit: Int
    ) {
        guard count < limit else { return }
        let needed = space && count > 0 ? 2 : 1
        guard count + needed <= limit else {
            count = limit
            return
        }
        if needed == 2 { text.unicodeScalars.append(" ") }
        text.unicodeScalars.append(scalar)
        count += needed
    }

    /// Marks a word boundary (a block element starts).
    mutating func breakWord(inMain: Bool) {
        pendingSpace = true
        if inMain { pendingMainSpace = true }
    }

    /// The main content's text when there is enough of it, else all visible text.
    var result: String {
        main.count >= 200 ? main : all
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
