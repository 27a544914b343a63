import Markup

/// Reads the deep links a page declares: the Smart App Banner, Twitter app cards and App Links.
/// (Universal links need the host's apple-app-site-association file: the crawler adds them.)
package struct DeepLinkReader: Sendable {
    /// The page's markup.
    package let page: PageMarkup

    /// Creates a reader.
    package init(page: PageMarkup) {
        self.page = page
    }

    /// Every deep link, Smart App Banner first (``deepLinks(findings:)`` without the findings).
    package var deepLinks: [DeepLink] {
        var ignored: [MappingFinding] = []
        return deepLinks(findings: &ignored)
    }

    /// Every deep link, Smart App Banner first. A link's URL must pass ``URLPolicy/deepLink``
    /// (an app's own scheme is fine, `javascript:` and the like never are): a refused URL is
    /// left out, with a finding, and a link that then has neither an app ID nor a URL is no link.
    package func deepLinks(findings: inout [MappingFinding]) -> [DeepLink] {
        var links: [DeepLink] = []
        if let tag = page.metaTags(name: "apple-itunes-app").first {
            let banner = SmartAppBanner(content: tag.content)
            if let appID = banner.appID {
                let url = banner.appArgument.flatMap {
                    allowed($0, from: "app-argument", line: tag.line, findings: &findings)
                }
                links.append(
                    DeepLink(
                        kind: .smartAppBanner, appStoreID: appID, url: url, appClipBundleID: banner.appClipBundleID))
            }
        }
        // Most pages have neither kind: one pass over the keys spares each its 18 or 12 look-ups.
        if hasMetaKey(prefix: "twitter:app:") { links += twitterCards(findings: &findings) }
        if hasMetaKey(prefix: "al:") { links += appLinks(findings: &findings) }
        return links
    }

    /// Whether some `<meta>` key (keys are stored lowercased) starts with `prefix`.
    private func hasMetaKey(prefix: String) -> Bool {
        page.metaTags.contains { $0.key.utf8.starts(with: prefix.utf8) }
    }

    /// The first `<meta name="apple-itunes-app">`, parsed (its values as written).
    package var smartAppBanner: SmartAppBanner? {
        page.metaContents(name: "apple-itunes-app").first.map(SmartAppBanner.init(content:))
    }

    /// `twitter:app:{name,id,url}:{iphone,ipad,googleplay}`, one link per platform that has an ID or an allowed URL.
    func twitterCards(findings: inout [MappingFinding]) -> [DeepLink] {
        var links: [DeepLink] = []
        for platform in ["iphone", "ipad", "googleplay"] {
            // Twitter's documentation uses name=, but property= is common on the web; accept both.
            func tags(_ field: String) -> [MetaTag] {
                let key = "twitter:app:\(field):\(platform)"
                return (page.metaTags(name: key) + page.metaTags(property: key)).filter { !$0.content.isEmpty }
            }
            let id = tags("id").first?.content
            let url = firstAllowed(tags("url"), findings: &findings)
            guard id != nil || url != nil else { continue }
            links.append(
                DeepLink(
                    kind: .twitterCard, appStoreID: id, appName: tags("name").first?.content, url: url,
                    platform: platform))
        }
        return links
    }

    /// `al:{ios,iphone,ipad,android}:{url,app_store_id,package,app_name}` (https://developers.facebook.com/docs/applinks).
    func appLinks(findings: inout [MappingFinding]) -> [DeepLink] {
        var links: [DeepLink] = []
        for platform in ["ios", "iphone", "ipad", "android"] {
            func tags(_ field: String) -> [MetaTag] {
                page.metaTags(property: "al:\(platform):\(field)").filter { !$0.content.isEmpty }
            }
            let url = firstAllowed(tags("url"), findings: &findings)
            let id = tags(platform == "android" ? "package" : "app_store_id").first?.content
            guard url != nil || id != nil else { continue }
            links.append(
                DeepLink(
                    kind: .appLinks, appStoreID: id, appName: tags("app_name").first?.content, url: url,
                    platform: platform))
        }
        return links
    }

    /// The first tag's content that ``URLPolicy/deepLink`` allows; each refused one before it is a finding.
    private func firstAllowed(_ tags: [MetaTag], findings: inout [MappingFinding]) -> String? {
        for tag in tags {
            if let url = allowed(tag.content, from: tag.key, line: tag.line, findings: &findings) { return url }
        }
        return nil
    }

    /// `value` when ``URLPolicy/deepLink`` allows it (resolved against the page for the check, kept
    /// as written); `nil`, with the refusal added to `findings`, when not.
    private func allowed(_ value: String, from source: String, line: Int, findings: inout [MappingFinding])
        -> String?
    {
        switch URLPolicy.deepLink.decide(value, base: page.baseURL) {
        case .accepted(let url):
            return url
        case .refused(let reason):
            findings.append(.refusedURL(URLRefusal(source: source, value: value, reason: reason, line: line)))
            return nil
        }
    }
}

/// The parameters of a Smart App Banner's `content`
/// (`app-id=…, app-argument=…, affiliate-data=…, app-clip-bundle-id=…, app-clip-display=card`).
package struct SmartAppBanner: Sendable, Hashable {
    /// `app-id`: the App Store ID, required.
    package var appID: String?
    /// `app-argument`: the URL the app should open.
    package var appArgument: String?
    /// `affiliate-data`.
    package var affiliateData: String?
    /// `app-clip-bundle-id`.
    package var appClipBundleID: String?
    /// `app-clip-display`.
    package var appClipDisplay: String?
    /// Keys that are not part of the format, as written.
    package var unknownKeys: [String] = []

    /// Parses the `content` attribute, tolerant of spacing, key case and empty pairs.
    /// Only the first comma separates pairs before a value starts: `app-argument` URLs may
    /// contain commas, so text up to the next `, key=` belongs to the value.
    package init(content: String) {
        let known = ["app-id", "app-argument", "affiliate-data", "app-clip-bundle-id", "app-clip-display"]
        for (key, value) in Self.pairs(content, knownKeys: known) {
            switch key {
            case "app-id": appID = value.isEmpty ? nil : value
            case "app-argument": appArgument = value.isEmpty ? nil : value
            case "affiliate-data": affiliateData = value
            case "app-clip-bundle-id": appClipBundleID = value
            case "app-clip-display": appClipDisplay = value
            default: unknownKeys.append(key)
            }
        }
    }

    private static func pairs(_ content: String, knownKeys: [String]) -> [(String, String)] {
        var result: [(String, String)] = []
        for piece in content.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = piece.firstIndex(of: "=") else {
                // No "=": a comma inside the previous value, or an empty pair.
                if !result.isEmpty, !piece.trimmingASCII(" \t").isEmpty {
                    result[result.count - 1].1 += "," + piece
                }
                continue
            }
            let key = piece[..<equals].trimmingASCII(" \t\n").lowercased()
            let value = piece[piece.index(after: equals)...].trimmingASCII(" \t\n")
            if !knownKeys.contains(key), !result.isEmpty, result[result.count - 1].0 == "app-argument" {
                // "…?a=1,b=2": a comma inside the app-argument URL, not a new pair.
                result[result.count - 1].1 += "," + piece
            } else {
                result.append((key, value))
            }
        }
        return result.map { ($0.0, $0.1.trimmingASCII(" \t\n")) }
    }
}

extension Substring {
    func trimmingASCII(_ characters: String) -> String {
        let set = Set(characters)
        guard let start = firstIndex(where: { !set.contains($0) }), let end = lastIndex(where: { !set.contains($0) })
        else {
            return ""
        }
        return String(self[start...end])
    }
}

extension String {
    func trimmingASCII(_ characters: String) -> String {
        self[...].trimmingASCII(characters)
    }
}
