import Crawler
import Items
import Markup
import Renderer
import StrictJSON

/// `validate --render`: the served page and the rendered one side by side — the fields only scripts supply,
/// and every request of the render that was refused, with the reason.
struct RenderComparison {
    /// One compared field: its name, and its value in the served and in the rendered page (`nil`: absent).
    struct Field {
        var name: String
        var served: String?
        var rendered: String?

        /// Present only once the page's scripts ran.
        var onlyFromScripts: Bool { served == nil && rendered != nil }
    }

    var fields: [Field]
    /// Requests refused: the URL, the DevTools resource type, and why.
    var refused: [(url: String, type: String, reason: String)]
    /// How many requests the render made in all, its document included.
    var requestCount: Int
    /// Why the render failed, when it did.
    var error: String?

    init(_ outcome: PageRenderer.Outcome) {
        let rendered = outcome.decision == .rendered
        fields = Self.fieldNames.map { name, value in
            Field(
                name: name, served: value(outcome.servedMarkup, outcome.servedItem),
                rendered: rendered ? value(outcome.markup, outcome.item) : nil)
        }
        var refused = outcome.requests.compactMap { request in
            request.refusal.map { (url: request.request.url, type: request.request.resourceType, reason: $0) }
        }
        // A script robots.txt disallows that the render never reached (it failed first) is still named.
        for script in outcome.disallowedScripts where !refused.contains(where: { $0.url == script.url }) {
            refused.append((url: script.url, type: "Script", reason: script.reason))
        }
        self.refused = refused
        requestCount = outcome.requests.count
        error = outcome.error.map(\.description)
    }

    /// The fields compared, each read from a page's markup and item.
    static let fieldNames: [(String, @Sendable (PageMarkup, SearchableItem) -> String?)] = [
        ("title", { _, item in item.attributeSet.title }),
        ("description", { _, item in item.attributeSet.contentDescription }),
        ("image", { _, item in item.attributeSet.thumbnailURL }),
        ("og:title", { markup, _ in markup.metaContents(property: "og:title").first }),
        (
            "twitter:app",
            { markup, _ in joined(markup.metaTags.filter { $0.key.hasPrefix("twitter:app:") }.map(\.key)) }
        ),
        ("apple-itunes-app", { markup, _ in markup.metaContents(name: "apple-itunes-app").first }),
        (
            "deep links",
            { _, item in joined(item.deepLinks.map { "\($0.kind.rawValue) \($0.url ?? $0.appStoreID ?? "")" }) }
        ),
        (
            "JSON-LD",
            { markup, _ in
                joined(markup.jsonLDEntities.flatMap { ($0["@type"]?.listValue ?? []).compactMap(\.stringValue) })
            }
        ),
        ("microdata", { markup, _ in joined(markup.microdata.flatMap(\.types)) }),
    ]

    private static func joined(_ values: [String]) -> String? {
        values.isEmpty ? nil : values.joined(separator: ", ")
    }

    var jsonValue: JSONValue {
        var members = [
            JSONMember("rendered", .bool(error == nil)),
            JSONMember("requests", .number(JSONNumber(requestCount))),
            JSONMember(
                "fields",
                .array(
                    fields.map { field in
                        .object([
                            JSONMember("name", .string(field.name)),
                            JSONMember("served", field.served.map(JSONValue.string) ?? .null),
                            JSONMember("rendered", field.rendered.map(JSONValue.string) ?? .null),
                            JSONMember("onlyFromScripts", .bool(field.onlyFromScripts)),
                        ])
                    })),
            JSONMember(
                "refused",
                .array(
                    refused.map { request in
                        .object([
                            JSONMember("url", .string(request.url)), JSONMember("type", .string(request.type)),
                            JSONMember("reason", .string(request.reason)),
                        ])
                    })),
        ]
        if let error { members.append(JSONMember("error", .string(error))) }
        return .object(members)
    }

    var textLines: [String] {
        var lines = [
            "", "rendered in headless Chromium: " + (error.map { "failed — \($0)" } ?? "\(requestCount) requests"),
        ]
        let width = max(12, fields.map(\.name.count).max() ?? 0) + 2
        lines.append("  " + "field".padding(width) + "served".padding(34) + "rendered")
        for field in fields where field.served != nil || field.rendered != nil {
            let marker = field.onlyFromScripts ? "  ← only from scripts" : ""
            lines.append(
                "  " + field.name.padding(width) + Self.cut(field.served ?? "—").padding(34)
                    + Self.cut(field.rendered ?? "—") + marker)
        }
        let scriptOnly = fields.filter(\.onlyFromScripts).map(\.name)
        lines.append(
            "only from scripts: " + (scriptOnly.isEmpty ? "nothing" : scriptOnly.joined(separator: ", ")))
        if refused.isEmpty {
            lines.append("refused requests: none")
        } else {
            lines.append("refused requests:")
            for request in refused { lines.append("  \(request.type) \(request.url): \(request.reason)") }
        }
        return lines
    }

    private static func cut(_ text: String) -> String {
        text.count > 32 ? String(text.prefix(31)) + "…" : text
    }
}
