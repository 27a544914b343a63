import Items
import Markup

/// Extracts an inline HTML page as `searchlight extract` would.
func extraction(_ html: String, url: String = "https://example.com/page", headers: [(name: String, value: String)] = [])
    -> PageExtraction
{
    PageExtraction(bytes: Array(html.utf8), url: url, headers: headers)
}

/// A page with `head` in its head and `body` in its body.
func page(head: String = "", body: String = "") -> String {
    "<!DOCTYPE html><html><head>\(head)</head><body>\(body)</body></html>"
}

/// A JSON-LD script element.
func jsonLD(_ json: String) -> String {
    "<script type=\"application/ld+json\">\(json)</script>"
}
