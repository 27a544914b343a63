import Items

/// `searchlight validate --html`: the report and the preview card as one self-contained page
/// (inline CSS, no scripts; only the thumbnail is loaded from the page's own image URL, and only
/// when that is an http or https URL).
struct ValidationHTML {
    let report: ValidationReport

    func render() -> String {
        var body = "<h1>Searchlight validation</h1>\n<p class=\"url\">\(Self.escape(report.url))</p>\n"
        if let card = report.preview { body += Self.cardHTML(card, pageURL: report.url) }
        if let extraction = report.extraction {
            let gate = extraction.appResult
            body +=
                "<p class=\"gate \(gate.isEligible ? "pass" : "fail")\">App result: "
                + (gate.isEligible ? "eligible" : "not eligible — " + Self.escape(gate.missing.joined(separator: "; ")))
                + "</p>\n"
        }
        body += "<table>\n<tr><th>check</th><th>result</th><th>why</th></tr>\n"
        for check in report.checks {
            body +=
                "<tr class=\"\(check.status.rawValue)\"><td>\(Self.escape(check.name))</td><td>\(check.status.rawValue)</td><td>\(Self.escape(check.message))</td></tr>\n"
        }
        body += "</table>\n"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Searchlight: \(Self.escape(report.url))</title>
            <style>
            body { font: 15px/1.4 -apple-system, "Helvetica Neue", Arial, sans-serif; margin: 24px; color: #1d1d1f; max-width: 760px; }
            h1 { font-size: 20px; } .url { color: #6e6e73; word-break: break-all; }
            .card { display: flex; gap: 14px; border: 1px solid #d2d2d7; border-radius: 12px; padding: 14px; margin: 16px 0; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
            .card .thumb { flex: none; width: 96px; height: 96px; background: #f5f5f7 center / cover no-repeat; border-radius: 8px; }
            .card .title { font-weight: 600; font-size: 17px; } .card .meta { color: #6e6e73; font-size: 13px; }
            .stars { color: #ff9500; } .actions span { display: inline-block; border: 1px solid #0071e3; color: #0071e3; border-radius: 12px; padding: 1px 9px; margin: 4px 4px 0 0; font-size: 12px; }
            table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: 5px 8px; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
            tr.pass td:nth-child(2) { color: #248a3d; } tr.warn td:nth-child(2) { color: #b25000; } tr.fail td:nth-child(2) { color: #d70015; font-weight: 600; }
            .gate.pass { color: #248a3d; } .gate.fail { color: #d70015; }
            </style></head>
            <body>
            \(body)</body></html>
            """
    }

    /// The preview card; `pageURL` stands in when the card has no URL of its own.
    static func cardHTML(_ card: PreviewCard, pageURL: String) -> String {
        var html = "<div class=\"card\">"
        // A CSS background, not <img>: an unreachable image leaves a plain tile, not a broken-image icon.
        // Only an absolute http(s) URL, as the WHATWG parser serializes it, whatever the item holds:
        // the mapping refuses the others, and this page must be safe to open even if one got through.
        if let thumbnail = card.thumbnailURL.flatMap(URLPolicy.web.accepted) {
            html += "<div class=\"thumb\" style=\"background-image: url('\(escape(cssURL(thumbnail)))')\"></div>"
        }
        html += "<div><div class=\"title\">\(escape(card.title ?? "(no title)"))</div>"
        if let description = card.description { html += "<div>\(escape(description))</div>" }
        var meta: [String] = []
        if let stars = card.stars {
            meta.append("<span class=\"stars\">\(stars)</span> \(card.ratingCount.map { "(\($0))" } ?? "")")
        }
        if let price = card.price { meta.append(escape(price)) }
        if let app = card.app { meta.append("app: " + escape(app)) }
        if !meta.isEmpty { html += "<div class=\"meta\">\(meta.joined(separator: " · "))</div>" }
        if !card.actions.isEmpty {
            html += "<div class=\"actions\">" + card.actions.map { "<span>\(escape($0))</span>" }.joined() + "</div>"
        }
        html += "<div class=\"meta\">\(escape(card.url ?? pageURL))</div></div></div>\n"
        return html
    }

    /// A URL made safe inside `url('…')`: characters that could end the string or the
    /// function are percent-encoded (they mean the same in a URL).
    static func cssURL(_ url: String) -> String {
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

    /// Escapes text for HTML element content and double-quoted attributes.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
