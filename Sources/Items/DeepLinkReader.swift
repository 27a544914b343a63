import Markup

/// Reads the deep links a page declares: the Smart App Banner, Twitter app cards and App Links.
/// (Universal links need the host's apple-app-site-association file: the crawler adds them.)
public struct DeepLinkReader: Sendable {
    /// The page's markup.
    public let page: PageMarkup

    /// Creates a reader.
    public init(page: PageMarkup) {
        self.page = page
    }

    /// Every deep link, Smart App Banner first.
    public var deepLinks: [DeepLink] {
        var links: [DeepLink] = []
        if let banner = smartAppBanner, let appID = banner.appID {
            links.append(
                DeepLink(
                    kind: .smartAppBanner, appStoreID: appID, url: banner.appArgument,
                    appClipBundleID: banner.appClipBundleID))
        }
        links += twitterCards + appLinks
        return links
    }

    /// The first `<meta name="apple-itunes-app">`, parsed.
    public var smartAppBanner: SmartAppBanner? {
        page.metaContents(name: "apple-itunes-app").first.map(SmartAppBanner.init(content:))
    }

    /// `twitter:app:{name,id,url}:{iphone,ipad,googleplay}`, one link per platform that has an ID or URL.
    var twitterCards: [DeepLink] {
        ["iphone", "ipad", "googleplay"].compactMap { platform in
            // Twitter's documentation uses name=, but property= is common on the web; accept both.
            func value(_ field: String) -> String? {
                let key = "twitter:app:\(field):\(platform)"
                return (page.metaContents(name: key) + page.metaContents(property: key)).first { !$0.isEmpty }
            }
            let id = value("id")
            let url = value("url")
            guard id != nil || url != nil else { return nil }
            return DeepLink(kind: .twitterCard, appStoreID: id, appName: value("name"), url: url, platform: platform)
        }
    }

    /// `al:{ios,iphone,ipad,android}:{url,app_store_id,package,app_name}` (https://developers.facebook.com/docs/applinks).
    var appLinks: [DeepLink] {
        ["ios", "iphone", "ipad", "android"].compactMap { platform in
            func value(_ field: String) -> String? {
                page.metaContents(property: "al:\(platform):\(field)").first { !$0.isEmpty }
            }
            let url = value("url")
            let id = platform == "android" ? value("package") : value("app_store_id")
            guard url != nil || id != nil else { return nil }
            return DeepLink(kind: .appLinks, appStoreID: id, appName: value("app_name"), url: url, platform: platform)
        }
    }
}

/// The parameters of a Smart App Banner's `content`
/// (`app-id=…, app-argument=…, affiliate-data=…, app-clip-bundle-id=…, app-clip-display=card`).
public struct SmartAppBanner: Sendable, Hashable {
    /// `app-id`: the App Store ID, required.
    public var appID: String?
    /// `app-argument`: the URL the app should open.
    public var appArgument: String?
    /// `affiliate-data`.
    public var affiliateData: String?
    /// `app-clip-bundle-id`.
    public var appClipBundleID: String?
    /// `app-clip-display`.
    public var appClipDisplay: String?
    /// Keys that are not part of the format, as written.
    public var unknownKeys: [String] = []

    /// Parses the `content` attribute, tolerant of spacing, key case and empty pairs.
    /// Only the first comma separates pairs before a value starts: `app-argument` URLs may
    /// contain commas, so text up to the next `, key=` belongs to the value.
    public init(content: String) {
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
