extension HTMLNode {
    /// Elements whose text is never part of a value: code and styles, not content.
    private static let nonContent: Set<String> = ["script", "style", "template", "noscript"]

    /// The element's text as a reader sees it, for microdata and RDFa values: descendants'
    /// text without scripts and styles, block elements and `<br>` separating words (where the
    /// DOM's `textContent` would glue "Pack</p>For" into "PackFor"), white space collapsed.
    var readableText: String {
        var result = ""
        var stack: [(node: HTMLNode, leaving: Bool)] = [(self, false)]
        while let (node, leaving) = stack.popLast() {
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
            if node.pointer != pointer && Self.nonContent.contains(name) { continue }
            let separates = VisibleText.isBlock(name)
            if separates {
                result += " "
                stack.append((node, true))
            }
            stack.append(contentsOf: node.children.reversed().map { ($0, false) })
        }
        return result.collapsingWhitespace()
    }
}
