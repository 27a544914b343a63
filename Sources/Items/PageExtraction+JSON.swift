import Markup
package import StrictJSON

extension PageExtraction {
    /// SPEC §6's `extract --json` object, plus `charset`, `checks` and `appResult`.
    package var jsonValue: JSONValue {
        var members: [JSONMember] = [JSONMember("url", .string(page.url))]
        members.append(JSONMember("title", item.attributeSet.title.map(JSONValue.string) ?? .null))
        members.append(JSONMember("description", item.attributeSet.contentDescription.map(JSONValue.string) ?? .null))
        members.append(JSONMember("canonicalURL", canonicalURL.map(JSONValue.string) ?? .null))
        members.append(
            JSONMember(
                "robots",
                .object([
                    JSONMember("index", .bool(page.robots.index)), JSONMember("follow", .bool(page.robots.follow)),
                    JSONMember("snippet", .bool(page.robots.snippet)),
                ])
            ))
        members.append(JSONMember("openGraph", metaObject { $0.kind == .property && Self.isOpenGraph($0.key) }))
        members.append(
            JSONMember(
                "twitter", metaObject { ($0.kind == .name || $0.kind == .property) && $0.key.hasPrefix("twitter:") }))
        members.append(JSONMember("appLinks", metaObject { $0.kind == .property && $0.key.hasPrefix("al:") }))
        members.append(JSONMember("smartAppBanner", smartAppBannerJSON))
        members.append(JSONMember("jsonLD", .array(page.jsonLD.map(\.value))))
        members.append(JSONMember("microdata", .array(page.microdata.map(Self.json))))
        members.append(JSONMember("rdfa", .array(page.rdfa.map(Self.json))))
        members.append(
            JSONMember(
                "links",
                .array(
                    page.links.map {
                        .object([JSONMember("url", .string($0.url)), JSONMember("nofollow", .bool($0.nofollow))])
                    })))
        members.append(
            JSONMember(
                "errors",
                .array(
                    page.issues.map { issue in
                        var fields: [JSONMember] = [
                            JSONMember("kind", .string(issue.kind)), JSONMember("message", .string(issue.message)),
                        ]
                        if let line = issue.line { fields.append(JSONMember("line", .number(line))) }
                        return .object(fields)
                    })
            ))
        members.append(JSONMember("item", item.jsonValue))
        if let decoding {
            members.append(
                JSONMember(
                    "charset",
                    .object([
                        JSONMember("encoding", .string(decoding.encoding.name)),
                        JSONMember("source", .string(decoding.source.rawValue)),
                    ])
                ))
        }
        members.append(JSONMember("checks", .array(checks.map(\.jsonValue))))
        members.append(JSONMember("appResult", appResult.jsonValue))
        return .object(members)
    }

    /// Open Graph's namespaces (https://ogp.me): `og:` and the object types' own.
    static func isOpenGraph(_ key: String) -> Bool {
        ["og:", "article:", "book:", "profile:", "music:", "video:"].contains { key.hasPrefix($0) }
    }

    private func metaObject(_ include: (MetaTag) -> Bool) -> JSONValue {
        var order: [String] = []
        var values: [String: [JSONValue]] = [:]
        for tag in page.metaTags where include(tag) {
            if values[tag.key] == nil { order.append(tag.key) }
            values[tag.key, default: []].append(.string(tag.content))
        }
        return .object(order.map { JSONMember($0, .array(values[$0] ?? [])) })
    }

    private var smartAppBannerJSON: JSONValue {
        guard let banner = DeepLinkReader(page: page).smartAppBanner else { return .null }
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            JSONMember("appID", optional(banner.appID)), JSONMember("appArgument", optional(banner.appArgument)),
            JSONMember("affiliateData", optional(banner.affiliateData)),
            JSONMember("appClipBundleID", optional(banner.appClipBundleID)),
        ])
    }

    static func json(_ item: MicrodataItem) -> JSONValue {
        var members: [JSONMember] = [JSONMember("type", .array(item.types.map(JSONValue.string)))]
        if let id = item.id { members.append(JSONMember("id", .string(id))) }
        members.append(JSONMember("properties", properties(item.properties.map { ($0.name, $0.value) }, nested: json)))
        return .object(members)
    }

    static func json(_ item: RDFaItem) -> JSONValue {
        var members: [JSONMember] = [JSONMember("type", .array(item.types.map(JSONValue.string)))]
        if let resource = item.resource { members.append(JSONMember("resource", .string(resource))) }
        members.append(JSONMember("properties", properties(item.properties.map { ($0.name, $0.value) }, nested: json)))
        return .object(members)
    }

    private static func properties<Item>(_ pairs: [(String, StructuredValue<Item>)], nested: (Item) -> JSONValue)
        -> JSONValue
    {
        var order: [String] = []
        var values: [String: [JSONValue]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { order.append(name) }
            let json: JSONValue
            switch value {
            case .text(let text), .url(let text): json = .string(text)
            case .item(let item): json = nested(item)
            }
            values[name, default: []].append(json)
        }
        return .object(order.map { JSONMember($0, .array(values[$0] ?? [])) })
    }
}
