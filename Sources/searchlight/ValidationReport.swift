import Crawler
import Fetching
import Items
import StrictJSON

/// The outcome of `searchlight validate`: the fetch, the checks and the preview card.
struct ValidationReport {
    let url: String
    let response: RedirectedResponse?
    let fetchError: FetchError?
    let extraction: PageExtraction?
    /// The page's item with the universal links its host's apple-app-site-association adds.
    let item: SearchableItem?
    let checks: [MarkupCheck]
    /// `--render`: the served and the rendered page compared.
    let render: RenderComparison?

    /// - Parameters:
    ///   - siteChecks: the robots.txt and universal-link checks, reported after the fetch.
    ///   - universalLinks: deep links the host's apple-app-site-association adds to the item.
    init(
        url: String, fetched: Result<RedirectedResponse, FetchError>, siteChecks: [MarkupCheck] = [],
        universalLinks: [DeepLink] = [], rendering: PageRenderer.Outcome? = nil
    ) {
        self.url = url
        render = rendering.map(RenderComparison.init)
        switch fetched {
        case .failure(let error):
            response = nil
            fetchError = error
            extraction = nil
            item = nil
            checks =
                [MarkupCheck(name: "fetch", status: .fail, message: "\(error.kind.rawValue): \(error.message)")]
                + siteChecks
        case .success(let result):
            response = result
            fetchError = nil
            let page = result.response
            var checks: [MarkupCheck] = []
            if (200...299).contains(page.status) {
                let hops = result.redirectCount
                checks.append(
                    MarkupCheck(
                        name: "fetch", status: hops > 0 ? .warn : .pass,
                        message: "HTTP \(page.status)"
                            + (hops > 0
                                ? " after \(hops) redirect(s): " + result.chain.map(\.url).joined(separator: " → ")
                                : "")))
            } else {
                checks.append(MarkupCheck(name: "fetch", status: .fail, message: "HTTP \(page.status)"))
            }
            let type = page.contentType?.lowercased() ?? ""
            let isHTML = type.isEmpty || type.contains("html")
            checks.append(
                MarkupCheck(
                    name: "contentType", status: isHTML ? .pass : .fail,
                    message: type.isEmpty ? "no Content-Type (sniffed as HTML)" : type))
            // A page that rendered is checked as a crawl indexes it: from its DOM.
            let extraction =
                rendering?.isRendered == true
                ? PageExtraction(page: rendering!.markup, siteDeepLinks: universalLinks)
                : PageExtraction(
                    bytes: page.body, url: result.finalURL,
                    headers: page.headers.map { (name: $0.name, value: $0.value) }, siteDeepLinks: universalLinks)
            self.extraction = extraction
            self.item = extraction.item
            self.checks = checks + siteChecks + extraction.checks
        }
    }

    var preview: PreviewCard? { item.map { PreviewCard(item: $0) } }

    var jsonValue: JSONValue {
        var members: [JSONMember] = [JSONMember("url", .string(url))]
        if let response {
            members.append(JSONMember("finalURL", .string(response.finalURL)))
            members.append(JSONMember("status", .number(response.response.status)))
            members.append(
                JSONMember(
                    "redirects",
                    .array(
                        response.chain.map { hop in
                            .object(
                                [JSONMember("url", .string(hop.url)), JSONMember("status", .number(hop.status))]
                                    + (hop.location.map { [JSONMember("location", .string($0))] } ?? []))
                        })
                ))
        }
        if let fetchError {
            members.append(
                JSONMember(
                    "error",
                    .object([
                        JSONMember("kind", .string(fetchError.kind.rawValue)),
                        JSONMember("message", .string(fetchError.message)),
                    ])
                ))
        }
        members.append(JSONMember("checks", .array(checks.map(\.jsonValue))))
        if let render { members.append(JSONMember("render", render.jsonValue)) }
        if let extraction, let item {
            members.append(JSONMember("appResult", extraction.appResult.jsonValue))
            members.append(JSONMember("preview", PreviewCard(item: item).jsonValue))
            members.append(JSONMember("item", item.jsonValue))
        }
        return .object(members)
    }

    var text: String {
        var lines = ["validate \(url)"]
        if let response, response.finalURL != url { lines.append("final URL: \(response.finalURL)") }
        for check in checks {
            lines.append("  \(check.status.rawValue.uppercased().padding(4)) \(check.name): \(check.message)")
        }
        if let extraction {
            let gate = extraction.appResult
            lines.append(
                "app result: "
                    + (gate.isEligible ? "eligible" : "not eligible — " + gate.missing.joined(separator: "; ")))
        }
        if let card = preview {
            lines.append("")
            lines.append("preview:")
            lines.append("  ┌ \(card.title ?? "(no title)")")
            if let description = card.description { lines.append("  │ \(description)") }
            if let stars = card.stars {
                lines.append(
                    "  │ \(stars) \(card.rating.map { AttributeSet.format($0) } ?? "")"
                        + (card.ratingCount.map { " (\($0))" } ?? ""))
            }
            if let price = card.price { lines.append("  │ \(price)") }
            if !card.actions.isEmpty { lines.append("  │ [" + card.actions.joined(separator: "] [") + "]") }
            if let app = card.app { lines.append("  │ app: \(app)") }
            if let thumbnail = card.thumbnailURL { lines.append("  │ image: \(thumbnail)") }
            lines.append("  └ \(card.url ?? url)")
        }
        if let render { lines += render.textLines }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
