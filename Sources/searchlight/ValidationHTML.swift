import Items
import PlainText

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
            \(PreviewCard.stylesheet)
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
        card.html(pageURL: pageURL)
    }

    static func escape(_ text: String) -> String {
        HTMLText.escape(text)
    }
}
