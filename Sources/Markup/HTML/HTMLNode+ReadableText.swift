extension HTMLNode {
    /// Elements whose text is never part of a value: code and styles, not content.
    private static let nonContent: Set<String> = ["script", "style", "template", "noscript"]

    /// The longest value kept, in UTF-8 bytes: a text value is a name, a description, a
    /// review — never a whole page. It also bounds the work: a property nested in another repeats
    /// its subtree's text, and without a limit 250 nested properties around 200 KB of text made
    /// 50 MB of values.
    static let maxReadableTextBytes = 20_000

    /// The element's text as a reader sees it, for microdata and RDFa values: descendants'
    /// text without scripts and styles, block elements and `<br>` separating words (where the
    /// DOM's `textContent` would glue "Pack</p>For" into "PackFor"), white space collapsed, at
    /// most ``maxReadableTextBytes`` bytes (cut at a character boundary).
    var readableText: String {
        var result = ""
        var stack: [(node: HTMLNode, leaving: Bool)] = [(self, false)]
        // Collect a little more than the limit (collapsing white space shrinks it), then stop walking.
        while result.utf8.count <= 2 * Self.maxReadableTextBytes, let (node, leaving) = stack.popLast() {
            if node.isText {
                result += node.text
                continue
            }
            guard node.isElement else { continue }
            let name = node.name
            if leaving {
                result += " "
                continue
            }
            if node.index != index && Self.nonContent.contains(name) { continue }
            let separates = VisibleText.isBlock(name)
            if separates {
                result += " "
                stack.append((node, true))
            }
            node.forEachChildReversed { stack.append(($0, false)) }
        }
        let collapsed = result.collapsingWhitespace()
        guard collapsed.utf8.count > Self.maxReadableTextBytes else { return collapsed }
        // Back off continuation bytes so the cut falls between scalars.
        let bytes = Array(collapsed.utf8.prefix(Self.maxReadableTextBytes + 1))
        var cut = Self.maxReadableTextBytes
        while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return String(decoding: bytes[..<cut], as: UTF8.self)
    }
}
