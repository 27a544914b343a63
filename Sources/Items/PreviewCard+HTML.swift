import PlainText

/// The preview card as HTML, shared by `validate --html` and the search page of `serve`: escaped text, a
/// thumbnail only from an absolute http(s) URL, and no script.
extension PreviewCard {
    /// The card as one `<div class="card">`; `pageURL` stands in when the card has no URL of its own.
    package func html(pageURL: String) -> String {
        var html = "<div class=\"card\">"
        // A CSS background, not <img>: an unreachable image leaves a plain tile, not a broken-image icon.
        // Only an absolute http(s) URL, as the WHATWG parser serializes it, whatever the item holds:
        // the mapping refuses the others, and the page must be safe to open even if one got through.
        if let thumbnail = thumbnailURL.flatMap(URLPolicy.web.accepted) {
            html +=
                "<div class=\"thumb\" style=\"background-image: url('\(HTMLText.escape(Self.cssURL(thumbnail)))')\"></div>"
        }
        html += "<div><div class=\"title\">\(HTMLText.escape(title ?? "(no title)"))</div>"
        if let description { html += "<div>\(HTMLText.escape(description))</div>" }
        var meta: [String] = []
        if let stars {
            meta.append("<span class=\"stars\">\(stars)</span> \(ratingCount.map { "(\($0))" } ?? "")")
        }
        if let price { meta.append(HTMLText.escape(price)) }
        if let app { meta.append("app: " + HTMLText.escape(app)) }
        if !meta.isEmpty { html += "<div class=\"meta\">\(meta.joined(separator: " · "))</div>" }
        if !actions.isEmpty {
            html +=
                "<div class=\"actions\">" + actions.map { "<span>\(HTMLText.escape($0))</span>" }.joined() + "</div>"
        }
        html += "<div class=\"meta\">\(HTMLText.escape(url ?? pageURL))</div></div></div>\n"
        return html
    }

    /// The cards' CSS, for a page's `<style>`.
    package static let stylesheet = """
        .card { display: flex; gap: 14px; border: 1px solid #d2d2d7; border-radius: 12px; padding: 14px; margin: 16px 0; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
        .card .thumb { flex: none; width: 96px; height: 96px; background: #f5f5f7 center / cover no-repeat; border-radius: 8px; }
        .card .title { font-weight: 600; font-size: 17px; } .card .meta { color: #6e6e73; font-size: 13px; }
        .stars { color: #ff9500; } .actions span { display: inline-block; border: 1px solid #0071e3; color: #0071e3; border-radius: 12px; padding: 1px 9px; margin: 4px 4px 0 0; font-size: 12px; }
        """

    /// A URL made safe inside `url('…')`: characters that could end the string or the function are
    /// percent-encoded (they mean the same in a URL).
    package static func cssURL(_ url: String) -> String {
        var result = ""
        for character in url {
            switch character {
            case "'": result += "%27"
            case "\"": result += "%22"
            case "(": result += "%28"
            case ")": result += "%29"
            case "\\": result += "%5C"
            case "\n", "\r": continue
            default: result.append(character)
            }
        }
        return result
    }
}
