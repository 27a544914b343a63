/// One entry of the public index, modelled on Core Spotlight's `CSSearchableItem`.
///
/// Its JSON form is SPEC §6's published item; property names follow Apple's APIs.
package struct SearchableItem: Sendable, Hashable {
    /// Where a published item's content came from.
    package enum Source: String, Sendable, Hashable {
        /// A crawled page.
        case web
        /// A donated `NSUserActivity`.
        case activity
        /// A donated `CSSearchableItem` (never public on its own).
        case searchableItem
    }

    /// The item's identity; for web items, the page URL.
    package var uniqueIdentifier: String
    /// The public web page for the item.
    package var webpageURL: String?
    /// Where the content came from.
    package var sources: [Source]
    /// The searchable attributes.
    package var attributeSet: AttributeSet
    /// Ways to open the content in an app.
    package var deepLinks: [DeepLink]
    /// A search landing page (`WebSite` → `SearchAction` target).
    package var searchAction: String?
    /// Distinct donors of matching activities (ranking).
    package var engagement: Int
    /// When the item leaves the index (ISO 8601), if known.
    package var expirationDate: String?

    /// Creates an item.
    package init(
        uniqueIdentifier: String, webpageURL: String? = nil, sources: [Source],
        attributeSet: AttributeSet = AttributeSet(),
        deepLinks: [DeepLink] = [], searchAction: String? = nil, engagement: Int = 0, expirationDate: String? = nil
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.webpageURL = webpageURL
        self.sources = sources
        self.attributeSet = attributeSet
        self.deepLinks = deepLinks
        self.searchAction = searchAction
        self.engagement = engagement
        self.expirationDate = expirationDate
    }
}

/// A deep link into an app: how a result opens somewhere other than the browser.
package struct DeepLink: Sendable, Hashable {
    /// The markup that declared it.
    package enum Kind: String, Sendable, Hashable {
        /// `<meta name="apple-itunes-app">`.
        case smartAppBanner
        /// `twitter:app:*` meta tags.
        case twitterCard
        /// `al:*` App Links meta tags.
        case appLinks
        /// The page URL itself, claimed by the host's apple-app-site-association file.
        case universalLink
    }

    /// Which markup declared the link.
    package var kind: Kind
    /// The App Store ID (digits), if given.
    package var appStoreID: String?
    /// The app's name, if given.
    package var appName: String?
    /// The URL the app opens (`app-argument`, `twitter:app:url:*`, `al:*:url`, or the page).
    package var url: String?
    /// The platform named by the markup: `iphone`, `ipad`, `ios`, `googleplay`, `android`; `nil` for Apple's own markup.
    package var platform: String?
    /// The App Clip bundle ID of a Smart App Banner, if given.
    package var appClipBundleID: String?
    /// For a universal link: the app ID (`TEAMID.bundle.id`) whose apple-app-site-association rules claim the URL.
    package var appID: String?

    /// Creates a deep link.
    package init(
        kind: Kind, appStoreID: String? = nil, appName: String? = nil, url: String? = nil, platform: String? = nil,
        appClipBundleID: String? = nil, appID: String? = nil
    ) {
        self.kind = kind
        self.appStoreID = appStoreID
        self.appName = appName
        self.url = url
        self.platform = platform
        self.appClipBundleID = appClipBundleID
        self.appID = appID
    }

    /// Whether the link opens an Apple-platform app (the only kind an App result can use).
    package var isApplePlatform: Bool {
        switch platform {
        case nil, "iphone", "ipad", "ios": return true
        default: return false
        }
    }
}
