/// A crawled page as the bridge sees it: its URLs (already canonical keys) and what decides
/// whether it is public (SPEC §4: 2xx, robots allowed, HTML, not `noindex`, a title).
package struct PageRecord: Sendable, Hashable {
    /// The URL as fetched (the report's member id).
    package var url: String
    /// The canonical key of the fetched URL.
    package var key: String
    /// The canonical key of the page's `rel=canonical` target, when it names another URL.
    package var canonicalKey: String?
    /// The HTTP status of the fetch.
    package var httpStatus: Int
    /// Whether the response was HTML.
    package var isHTML: Bool
    /// Whether the crawler found it indexable (robots meta and header allow indexing).
    package var isIndexable: Bool
    /// Whether it answered 404/410 on its last fetch.
    package var isGone: Bool
    /// Whether it has a title.
    package var hasTitle: Bool
    /// When it was last fetched (seconds since 1970).
    package var lastSeen: Double
    /// Changes whenever anything above or the page's item changes (incremental publishing).
    package var version: UInt64
    /// The page's origin (`scheme://host[:port]`), whose apple-app-site-association says which apps may
    /// speak for it (``BridgeInput/associations``); `nil` when unknown: no app may.
    package var origin: String?

    /// Creates a page record.
    package init(
        url: String, key: String, canonicalKey: String?, httpStatus: Int, isHTML: Bool, isIndexable: Bool,
        isGone: Bool, hasTitle: Bool, lastSeen: Double, version: UInt64, origin: String? = nil
    ) {
        self.origin = origin
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
    package var isPublic: Bool { notPublicDetail == nil }

    /// `nil` when public; else the first rule it fails, for the report (`gone`, `http 500`, …).
    package var notPublicDetail: String? {
        if isGone { return "gone" }
        if !(200..<300).contains(httpStatus) { return "http \(httpStatus)" }
        if !isHTML { return "not HTML" }
        if !isIndexable { return "noindex" }
        if !hasTitle { return "no title" }
        return nil
    }
}

/// A stored activity (one that reached the engagement threshold), reduced to what the bridge decides on.
package struct ActivityRecord: Sendable, Hashable {
    /// The store's row id.
    package var id: Int64
    /// The app.
    package var bundleIdentifier: String
    /// A readable identifier for the report (persistent identifier, or activity type).
    package var displayID: String
    /// The donated `webpageURL`, as donated.
    package var webpageURL: String?
    /// Its canonical key.
    package var urlKey: String?
    /// `relatedUniqueIdentifier` (must exist).
    package var relatedUniqueIdentifier: String?
    /// Whether it has non-empty `requiredUserInfoKeys`.
    package var hasRequiredUserInfo: Bool
    /// `expirationDate` (seconds since 1970), if any.
    package var expiresAt: Double?
    /// Distinct donors.
    package var donors: Int
    /// When it was last donated anew (seconds since 1970).
    package var lastSeen: Double
    /// The row's version (incremental publishing).
    package var version: UInt64

    /// Creates an activity record.
    package init(
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
package struct AppItemRecord: Sendable, Hashable {
    /// The app.
    package var bundleIdentifier: String
    /// The item's identifier within the app.
    package var uniqueIdentifier: String
    /// `expirationDate` (seconds since 1970), if any.
    package var expiresAt: Double?
    /// When it was last donated anew.
    package var lastSeen: Double

    /// Creates an item record.
    package init(bundleIdentifier: String, uniqueIdentifier: String, expiresAt: Double?, lastSeen: Double) {
        self.bundleIdentifier = bundleIdentifier
        self.uniqueIdentifier = uniqueIdentifier
        self.expiresAt = expiresAt
        self.lastSeen = lastSeen
    }
}

/// A redirect the crawler followed, as canonical keys.
package struct RedirectRecord: Sendable, Hashable {
    /// Where it came from.
    package var fromKey: String
    /// Where it went.
    package var toKey: String

    /// Creates a redirect record.
    package init(fromKey: String, toKey: String) {
        self.fromKey = fromKey
        self.toKey = toKey
    }
}

/// Everything a publish decides over.
package struct BridgeInput: Sendable {
    /// Crawled pages.
    package var pages: [PageRecord]
    /// Stored activities.
    package var activities: [ActivityRecord]
    /// Donated searchable items.
    package var items: [AppItemRecord]
    /// Followed redirects.
    package var redirects: [RedirectRecord]
    /// Canonical keys of URLs the crawler tried and gave up on without a page (fetch failed, not a
    /// crawlable URL): crawled, and not public.
    package var unreachableKeys: [String]
    /// Canonical keys of URLs robots.txt did not let the crawler fetch: crawled as far as they ever can be.
    package var robotsDisallowedKeys: [String]
    /// Canonical keys of donated URLs the crawler did not fetch because their host, outside every crawl's
    /// scope, does not associate the donating app: crawled as far as they ever can be for that app.
    package var notAssociatedKeys: [String]
    /// The bundle identifiers each origin's apple-app-site-association names (in `applinks`,
    /// `activitycontinuation` or `webcredentials`): the apps whose activities may join that origin's pages.
    package var associations: [String: Set<String>]

    /// Creates an input.
    package init(
        pages: [PageRecord] = [], activities: [ActivityRecord] = [], items: [AppItemRecord] = [],
        redirects: [RedirectRecord] = [], unreachableKeys: [String] = [], robotsDisallowedKeys: [String] = [],
        notAssociatedKeys: [String] = [], associations: [String: Set<String>] = [:]
    ) {
        self.pages = pages
        self.activities = activities
        self.items = items
        self.redirects = redirects
        self.unreachableKeys = unreachableKeys
        self.robotsDisallowedKeys = robotsDisallowedKeys
        self.notAssociatedKeys = notAssociatedKeys
        self.associations = associations
    }

    /// Whether an app of `bundleIdentifier` may speak for the page at `origin`.
    package func associates(_ origin: String, _ bundleIdentifier: String) -> Bool {
        associations[origin]?.contains(bundleIdentifier) ?? false
    }
}
