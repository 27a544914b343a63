import Items
import Markup

/// The URL rules of ``URLPolicy`` applied once more to a page's item as the store holds it: a page crawled
/// before the rules were enforced may carry a `javascript:` thumbnail or deep link, and publishing (which
/// a store upgrade triggers for every cluster) must not carry it into the public index.
extension PublishedItemBuilder {
    /// `attributes` without a refused `thumbnailURL`, the media whose `url` is refused, and a recipe
    /// `image` that is refused (web URLs: http and https only).
    static func attributesWithSafeURLs(_ attributes: [(key: String, value: JSONValue)]) -> [(
        key: String, value: JSONValue
    )] {
        attributes.compactMap { member in
            switch member.key {
            case "thumbnailURL":
                return isSafe(member.value, .web) ? member : nil
            case "media":
                let kept = member.value.listValue.filter { isSafe($0["url"], .web) }
                return kept.isEmpty ? nil : (member.key, .array(kept))
            case "recipe":
                guard case .object(let fields) = member.value else { return member }
                return (member.key, .object(fields.filter { $0.key != "image" || isSafe($0.value, .web) }))
            default:
                return member
            }
        }
    }

    /// `deepLinks` with every refused `url` left out (the link keeps its App Store ID).
    static func deepLinksWithSafeURLs(_ deepLinks: JSONValue?) -> JSONValue {
        .array(
            (deepLinks?.listValue ?? []).map { link in
                guard case .object(let fields) = link else { return link }
                return .object(fields.filter { $0.key != "url" || isSafe($0.value, .deepLink) })
            })
    }

    /// Whether `value` is a URL `policy` accepts (a search action's `{placeholders}` parse as a URL).
    static func isSafe(_ value: JSONValue?, _ policy: URLPolicy) -> Bool {
        guard let text = value?.stringValue else { return false }
        return policy.accepted(text) != nil
    }
}
