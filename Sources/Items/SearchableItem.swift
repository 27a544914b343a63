/// One entry of the public index, modelled on Core Spotlight's `CSSearchableItem`.
///
/// Its JSON form is SPEC §6's published item; property names follow Apple's APIs.
public struct SearchableItem: Sendable, Hashable {
    /// Where a published item's content came from.
    public enum Source: String, Sendable, Hashable {
        /// A crawled page.
        case web
        /// A donated `NSUserActivity`.
        case activity
        /// A donated `CSSearchableItem` (never public on its own).
        case searchableItem
    }

    /// The item's identity; for web items, the page URL.
    public var uniqueIdentifier: String
    /// The public web page for the item.
    public var webpageURL: String?
    /// Where the content came from.
    public var sources: [Source]
    /// The searchable attributes.
    public var attributeSet: AttributeSet
    /// Ways to open the content in an app.
    public var deepLinks: [DeepLink]
    /// A search landing page (`WebSite` → `SearchAction` target).
    public var searchAction: String?
    /// Distinct donors of matching activities (ranking).
    public var engagement: Int
    /// When the item leaves the index (ISO 8601), if known.
    public var expirationDate: String?

    /// Creates an item.
    public init(
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
public struct DeepLink: Sendable, Hashable {
    /// The markup that declared it.
    public enum Kind: String, Sendable, Hashable {
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
    public var kind: Kind
    /// The App Store ID (digits), if given.
    public var appStoreID: String?
    /// The app's name, if given.
    public var appName: String?
    /// The URL the app opens (`app-argument`, `twitter:app:url:*`, `al:*:url`, or the page).
    public var url: String?
    /// The platform named by the markup: `iphone`, `ipad`, `ios`, `googleplay`, `android`; `nil` for Apple's own markup.
    public var platform: String?
    /// The App Clip bundle ID of a Smart App Banner, if given.
    public var appClipBundleID: String?
    /// For a universal link: the app ID (`TEAMID.bundle.id`) whose apple-app-site-association rules claim the URL.
    public var appID: String?

    /// Creates a deep link.
    public init(
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
    public var isApplePlatform: Bool {
        switch platform {
        case nil, "iphone", "ipad", "ios": return true
        default: return false
        }
    }
}
