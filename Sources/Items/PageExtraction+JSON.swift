import Markup

extension PageExtraction {
    /// SPEC §6's `extract --json` object, plus `charset`, `checks` and `appResult`.
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("url", .string(page.url))]
        members.append(("title", item.attributeSet.title.map(JSONValue.string) ?? .null))
        members.append(("description", item.attributeSet.contentDescription.map(JSONValue.string) ?? .null))
        members.append(("canonicalURL", canonicalURL.map(JSONValue.string) ?? .null))
        members.append(
            (
                "robots",
                .object([
                    ("index", .bool(page.robots.index)), ("follow", .bool(page.robots.follow)),
                    ("snippet", .bool(page.robots.snippet)),
                ])
            ))
        members.append(("openGraph", metaObject { $0.kind == .property && Self.isOpenGraph($0.key) }))
        members.append(
            ("twitter", metaObject { ($0.kind == .name || $0.kind == .property) && $0.key.hasPrefix("twitter:") }))
        members.append(("appLinks", metaObject { $0.kind == .property && $0.key.hasPrefix("al:") }))
        members.append(("smartAppBanner", smartAppBannerJSON))
        members.append(("jsonLD", .array(page.jsonLD.map(\.value))))
        members.append(("microdata", .array(page.microdata.map(Self.json))))
        members.append(("rdfa", .array(page.rdfa.map(Self.json))))
        members.append(
            ("links", .array(page.links.map { .object([("url", .string($0.url)), ("nofollow", .bool($0.nofollow))]) })))
        members.append(
            (
                "errors",
                .array(
                    page.issues.map { issue in
                        var fields: [(key: String, value: JSONValue)] = [
                            ("kind", .string(issue.kind)), ("message", .string(issue.message)),
                        ]
                        if let line = issue.line { fields.append(("line", .number(String(line)))) }
                        return .object(fields)
                    })
            ))
        members.append(("item", item.jsonValue))
        if let decoding {
            members.append(
                (
                    "charset",
                    .object([
                        ("encoding", .string(decoding.encoding.name)), ("source", .string(decoding.source.rawValue)),
                    ])
                ))
        }
        members.append(("checks", .array(checks.map(\.jsonValue))))
        members.append(("appResult", appResult.jsonValue))
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
        return .object(order.map { ($0, .array(values[$0] ?? [])) })
    }

    private var smartAppBannerJSON: JSONValue {
        guard let banner = DeepLinkReader(page: page).smartAppBanner else { return .null }
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            ("appID", optional(banner.appID)), ("appArgument", optional(banner.appArgument)),
            ("affiliateData", optional(banner.affiliateData)), ("appClipBundleID", optional(banner.appClipBundleID)),
        ])
    }

    static func json(_ item: MicrodataItem) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", .array(item.types.map(JSONValue.string)))]
        if let id = item.id { members.append(("id", .string(id))) }
        members.append(("properties", properties(item.properties.map { ($0.name, $0.value) }, nested: json)))
        return .object(members)
    }

    static func json(_ item: RDFaItem) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", .array(item.types.map(JSONValue.string)))]
        if let resource = item.resource { members.append(("resource", .string(resource))) }
        members.append(("properties", properties(item.properties.map { ($0.name, $0.value) }, nested: json)))
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
        return .object(order.map { ($0, .array(values[$0] ?? [])) })
    }
}
