/// A crawled page as the bridge sees it: its URLs (already canonical keys) and what decides
/// whether it is public (SPEC §4: 2xx, robots allowed, HTML, not `noindex`, a title).
public struct PageRecord: Sendable, Hashable {
    /// The URL as fetched (the report's member id).
    public var url: String
    /// The canonical key of the fetched URL.
    public var key: String
    /// The canonical key of the page's `rel=canonical` target, when it names another URL.
    public var canonicalKey: String?
    /// The HTTP status of the fetch.
    public var httpStatus: Int
    /// Whether the response was HTML.
    public var isHTML: Bool
    /// Whether the crawler found it indexable (robots meta and header allow indexing).
    public var isIndexable: Bool
    /// Whether it answered 404/410 on its last fetch.
    public var isGone: Bool
    /// Whether it has a title.
    public var hasTitle: Bool
    /// When it was last fetched (seconds since 1970).
    public var lastSeen: Double
    /// Changes whenever anything above or the page's item changes (incremental publishing).
    public var version: UInt64

    /// Creates a page record.
    public init(
        url: String, key: String, canonicalKey: String?, httpStatus: Int, isHTML: Bool, isIndexable: Bool,
        isGone: Bool, hasTitle: Bool, lastSeen: Double, version: UInt64
    ) {
        self.url = url
        self.key = key
        self.canonicalKey = canonicalKey
        self.httpStatus = httpStatus
        self.isHTML = isHTML
        self.isIndexable = isIndexable
        self.isGone = isGone
        self.hasTitle = hasTitle
        self.lastSeen = lastSeen
        self.version = version
    }

    /// Whether the page may be published on its own terms (SPEC §4), ignoring age.
    public var isPublic: Bool { notPublicDetail == nil }

    /// `nil` when public; else the first rule it fails, for the report (`gone`, `http 500`, …).
    public var notPublicDetail: String? {
        if isGone { return "gone" }
        if !(200..<300).contains(httpStatus) { return "http \(httpStatus)" }
        if !isHTML { return "not HTML" }
        if !isIndexable { return "noindex" }
        if !hasTitle { return "no title" }
        return nil
    }
}

/// A stored activity (one that reached the engagement threshold), reduced to what the bridge decides on.
public struct ActivityRecord: Sendable, Hashable {
    /// The store's row id.
    public var id: Int64
    /// The app.
    public var bundleIdentifier: String
    /// A readable identifier for the report (persistent identifier, or activity type).
    public var displayID: String
    /// The donated `webpageURL`, as donated.
    public var webpageURL: String?
    /// Its canonical key.
    public var urlKey: String?
    /// `relatedUniqueIdentifier` (must exist).
    public var relatedUniqueIdentifier: String?
    /// Whether it has non-empty `requiredUserInfoKeys`.
    public var hasRequiredUserInfo: Bool
    /// `expirationDate` (seconds since 1970), if any.
    public var expiresAt: Double?
    /// Distinct donors.
    public var donors: Int
    /// When it was last donated anew (seconds since 1970).
    public var lastSeen: Double
    /// The row's version (incremental publishing).
    public var version: UInt64

    /// Creates an activity record.
    public init(
        id: Int64, bundleIdentifier: String, displayID: String, webpageURL: String?, urlKey: String?,
        relatedUniqueIdentifier: String?, hasRequiredUserInfo: Bool, expiresAt: Double?, donors: Int,
        lastSeen: Double, version: UInt64
    ) {
        self.id = id
        self.bundleIdentifier = bundleIdentifier
        self.displayID = displayID
        self.webpageURL = webpageURL
        self.urlKey = urlKey
        self.relatedUniqueIdentifier = relatedUniqueIdentifier
        self.hasRequiredUserInfo = hasRequiredUserInfo
        self.expiresAt = expiresAt
        self.donors = donors
        self.lastSeen = lastSeen
        self.version = version
    }
}

/// A donated searchable item: identifiers and dates only (its content is never stored).
public struct AppItemRecord: Sendable, Hashable {
    /// The app.
    public var bundleIdentifier: String
    /// The item's identifier within the app.
    public var uniqueIdentifier: String
    /// `expirationDate` (seconds since 1970), if any.
    public var expiresAt: Double?
    /// When it was last donated anew.
    public var lastSeen: Double

    /// Creates an item record.
    public init(bundleIdentifier: String, uniqueIdentifier: String, expiresAt: Double?, lastSeen: Double) {
        self.bundleIdentifier = bundleIdentifier
        self.uniqueIdentifier = uniqueIdentifier
        self.expiresAt = expiresAt
        self.lastSeen = lastSeen
    }
}

/// A redirect the crawler followed, as canonical keys.
public struct RedirectRecord: Sendable, Hashable {
    /// Where it came from.
    public var fromKey: String
    /// Where it went.
    public var toKey: String

    /// Creates a redirect record.
    public init(fromKey: String, toKey: String) {
        self.fromKey = fromKey
        self.toKey = toKey
    }
}

/// Everything a publish decides over.
public struct BridgeInput: Sendable {
    /// Crawled pages.
    public var pages: [PageRecord]
    /// Stored activities.
    public var activities: [ActivityRecord]
    /// Donated searchable items.
    public var items: [AppItemRecord]
    /// Followed redirects.
    public var redirects: [RedirectRecord]
    /// Canonical keys of URLs the crawler tried and gave up on without a page (fetch failed, not a
    /// crawlable URL): crawled, and not public.
    public var unreachableKeys: [String]
    /// Canonical keys of URLs robots.txt did not let the crawler fetch: crawled as far as they ever can be.
    public var robotsDisallowedKeys: [String]

    /// Creates an input.
    public init(
        pages: [PageRecord] = [], activities: [ActivityRecord] = [], items: [AppItemRecord] = [],
        redirects: [RedirectRecord] = [], unreachableKeys: [String] = [], robotsDisallowedKeys: [String] = []
    ) {
        self.pages = pages
        self.activities = activities
        self.items = items
        self.redirects = redirects
        self.unreachableKeys = unreachableKeys
        self.robotsDisallowedKeys = robotsDisallowedKeys
    }
}
