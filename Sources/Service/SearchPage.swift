import Foundation
import Hummingbird
import Items
import PlainText
import Store

/// `GET /` (`?q=…`): a search box and the results as preview cards (``PreviewCard``, as `validate --html`
/// draws them). Self-contained: inline CSS under a strict Content-Security-Policy, no script, no
/// external resource but the results' own thumbnails; everything echoed is escaped.
enum SearchPage {
    /// No script at all; styles only inline; images from http(s) only; no form posts elsewhere.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src http: https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The most characters of a query or message the page shows.
    static let shownLimit = 200

    /// The page for `text` with `cards` (`nil` before a search), and `message` in place of results.
    ///
    /// What the page echoes of the query and of messages is shown with its control characters, line
    /// separators and bidirectional formatting characters made visible (`\u{1B}`, `\u{202E}`: they could
    /// reorder or hide what a reader sees), and cut to ``shownLimit`` characters; the search box gets the
    /// query without them, so a new search is of the text as shown.
    static func render(text: String, total: Int?, totalIsLowerBound: Bool, cards: [PreviewCard], message: String?)
        -> String
    {
        let shown = HTMLText.escape(DisplayText.sanitized(text, limit: shownLimit).text)
        var field = ""
        field.unicodeScalars.append(contentsOf: text.unicodeScalars.filter { !DisplayText.isHidden($0) })
        var body = """
            <h1>Searchlight</h1>
            <form method="get" action="/" role="search"><input type="search" name="q" value="\(HTMLText.escape(field))" \
            aria-label="Search" autofocus> <button type="submit">Search</button></form>

            """
        if let message {
            body +=
                "<p class=\"message\">\(HTMLText.escape(DisplayText.sanitized(message, limit: shownLimit * 2).text))</p>\n"
        } else if let total {
            let count = totalIsLowerBound ? "More than \(total - 1) results" : "\(total) result\(total == 1 ? "" : "s")"
            body += "<p class=\"count\">\(count) for “\(shown)”</p>\n"
            for card in cards { body += card.html(pageURL: card.url ?? "") }
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(text.isEmpty ? "Searchlight" : "Searchlight: " + shown)</title>
            <style>
            body { font: 15px/1.4 -apple-system, "Helvetica Neue", Arial, sans-serif; margin: 24px auto; color: #1d1d1f; max-width: 760px; padding: 0 16px; }
            h1 { font-size: 22px; } input[type=search] { width: 70%; font-size: 16px; padding: 6px 10px; }
            button { font-size: 16px; padding: 6px 14px; } .count, .message { color: #6e6e73; }
            \(PreviewCard.stylesheet)
            </style></head>
            <body>
            \(body)</body></html>
            """
    }
}

extension SearchService {
    /// The search page: the form, and for `q` the results as cards (a result whose stored item does not
    /// read is shown with its title and description only).
    func searchPage(_ request: Request) async throws -> Response {
        let text = FormQuery(request.uri.query)["q"] ?? ""
        var html: String
        var status = HTTPResponse.Status.ok
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            html = SearchPage.render(text: "", total: nil, totalIsLowerBound: false, cards: [], message: nil)
        } else {
            do {
                let results = try await runSearch(text, query: nil, limit: PublicSearch.defaultLimit)
                var cards: [PreviewCard] = []
                let items =
                    (try? await source.publicItems(uniqueIdentifiers: results.hits.map(\.uniqueIdentifier))) ?? [:]
                for hit in results.hits {
                    if let stored = items[hit.uniqueIdentifier], let item = try? SearchableItem(jsonText: stored) {
                        cards.append(PreviewCard(item: item))
                    } else {
                        var card = PreviewCard(
                            item: SearchableItem(uniqueIdentifier: hit.uniqueIdentifier, sources: []))
                        card.title = hit.title
                        card.description = hit.contentDescription
                        card.url = hit.webpageURL
                        cards.append(card)
                    }
                }
                html = SearchPage.render(
                    text: text, total: results.total, totalIsLowerBound: results.totalIsLowerBound, cards: cards,
                    message: results.total == 0 ? "No results for “\(text)”." : nil)
            } catch let error as ServiceError {
                html = SearchPage.render(
                    text: text, total: nil, totalIsLowerBound: false, cards: [], message: error.message)
                status = error.status
            }
        }
        var response = Response.text(html, contentType: "text/html; charset=utf-8", status: status)
        response.headers[.contentSecurityPolicy] = SearchPage.contentSecurityPolicy
        return response
    }
}

/// The parameters of a query string as an HTML form sends them (`application/x-www-form-urlencoded`:
/// `+` is a space, then percent-decoding); the first value of a name wins.
struct FormQuery {
    private var values: [String: String] = [:]
    /// The first parameter whose name or value is not valid percent-encoding (`100%`, `%ZZ`, bytes that
    /// are not UTF-8), if any: the API refuses the request rather than guess.
    private(set) var undecodable: String?

    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else {
                undecodable = undecodable ?? String(parts[0].prefix(40))
                continue
            }
            guard values[name] == nil else { continue }
            guard let value = parts.count > 1 ? Self.decode(parts[1]) : "" else {
                undecodable = undecodable ?? name
                continue
            }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
