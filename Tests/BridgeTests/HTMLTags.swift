/// The start and end tags of an HTML document, read with just enough of the HTML tokenizer to
/// check what elements and attributes a page has: text between tags is skipped, quoted attribute
/// values may hold `>`, and comments and the doctype are reported under `!`.
struct HTMLTag: Hashable {
    /// The lower-cased element name (`/td` for an end tag, `!` for comments and the doctype).
    var name: String
    /// The lower-cased attribute names, in order.
    var attributes: [String]

    /// Every tag in `html`, in order.
    static func scan(_ html: String) -> [HTMLTag] {
        var tags: [HTMLTag] = []
        let scalars = Array(html.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "<" else {
                index += 1
                continue
            }
            index += 1
            if index < scalars.count, scalars[index] == "!" {
                tags.append(HTMLTag(name: "!", attributes: []))
                while index < scalars.count, scalars[index] != ">" { index += 1 }
                continue
            }
            var name = ""
            while index < scalars.count, !isSpace(scalars[index]), scalars[index] != ">" {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            var attributes: [String] = []
            while index < scalars.count, scalars[index] != ">" {
                if isSpace(scalars[index]) || scalars[index] == "/" {
                    index += 1
                    continue
                }
                var attribute = ""
                while index < scalars.count, !isSpace(scalars[index]), !"=>".unicodeScalars.contains(scalars[index]) {
                    attribute.unicodeScalars.append(scalars[index])
                    index += 1
                }
                attributes.append(attribute.lowercased())
                guard index < scalars.count, scalars[index] == "=" else { continue }
                index += 1
                if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                    let quote = scalars[index]
                    index += 1
                    while index < scalars.count, scalars[index] != quote { index += 1 }
                    index += 1
                } else {
                    while index < scalars.count, !isSpace(scalars[index]), scalars[index] != ">" { index += 1 }
                }
            }
            tags.append(HTMLTag(name: name.lowercased(), attributes: attributes))
        }
        return tags
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar == "\u{C}"
    }

    /// The only elements the report page is made of.
    static let reportElements: Set<String> = [
        "!", "html", "head", "meta", "title", "style", "body", "header", "h1", "p", "time", "strong", "main",
        "section", "h2", "ul", "li", "span", "table", "thead", "tr", "th", "tbody", "td", "code", "article", "h3",
        "dl", "dt", "dd", "a",
    ]

    /// The only attributes the report page uses.
    static let reportAttributes: Set<String> = [
        "lang", "charset", "http-equiv", "content", "name", "class", "datetime", "scope", "href", "rel",
    ]
}
