import Foundation

/// The rows a publish reads from a store and the rows it writes back, one type per table, as either
/// engine reads and writes them. The publisher (`Index`) turns the read rows into the bridge's records,
/// plans the clusters and builds their items; the store only moves rows.

/// A crawled HTML page (or a gone one), with the frontier key it was fetched under.
package struct PublishPageRow: Sendable {
    package var url: String
    package var finalURL: String
    package var canonicalURL: String?
    package var httpStatus: Int
    package var isIndexable: Bool
    package var isGone: Bool
    package var hasTitle: Bool
    package var fetchedAt: Double
    package var changedAt: Double
    /// The page's key in the frontier (the importer's key for an activity's page), when it has one.
    package var urlKey: String?
    /// The frontier's host of the page (`scheme://host[:port]`), when it has a frontier row.
    package var host: String?

    package init(
        url: String, finalURL: String, canonicalURL: String?, httpStatus: Int, isIndexable: Bool, isGone: Bool,
        hasTitle: Bool, fetchedAt: Double, changedAt: Double, urlKey: String?, host: String?
    ) {
        self.host = host
        self.url = url
        self.finalURL = finalURL
        self.canonicalURL = canonicalURL
        self.httpStatus = httpStatus
        self.isIndexable = isIndexable
        self.isGone = isGone
        self.hasTitle = hasTitle
        self.fetchedAt = fetchedAt
        self.changedAt = changedAt
        self.urlKey = urlKey
    }
}

/// A page URL the crawler gave up on (failed or skipped).
package struct PublishUnreachableRow: Sendable {
    /// Why the crawler fetched no page there.
    package enum Cause: Int, Sendable {
        /// An error, a filter, a limit.
        case failed = 0
        /// robots.txt disallowed it.
        case robotsDisallowed = 1
        /// A donated URL whose host, outside every crawl's scope, does not associate the donating app.
        case appNotAssociated = 2

        /// The SQL that reads a `crawl_url` row's cause from its `outcome` (the same on both engines).
        static let column = """
            CASE outcome WHEN '\(CrawlOutcome.robotsDisallowed.text)' THEN 1
                         WHEN '\(CrawlOutcome.appNotAssociated.text)' THEN 2 ELSE 0 END
            """
    }

    package var url: String
    package var urlKey: String?
    /// Why it ended without a page.
    package var cause: Cause

    package init(url: String, urlKey: String?, cause: Cause) {
        self.url = url
        self.urlKey = urlKey
        self.cause = cause
    }
}

/// An origin's stored apple-app-site-association (a 200 answer's body), read for the apps it associates.
package struct PublishAssociationRow: Sendable {
    /// The origin (`scheme://host[:port]`).
    package var host: String
    /// The file's bytes.
    package var body: [UInt8]

    package init(host: String, body: [UInt8]) {
        self.host = host
        self.body = body
    }
}

/// A stored activity (one that reached the engagement threshold), without its content.
package struct PublishActivityRow: Sendable {
    package var id: Int64
    package var bundle: String
    package var activityType: String
    package var persistentIdentifier: String?
    package var webpageURL: String?
    package var urlKey: String?
    package var relatedID: String?
    package var hasUserInfo: Bool
    package var expiresAt: Double?
    package var donors: Int
    package var lastSeen: Double
    package var version: Int64

    package init(
        id: Int64, bundle: String, activityType: String, persistentIdentifier: String?, webpageURL: String?,
        urlKey: String?, relatedID: String?, hasUserInfo: Bool, expiresAt: Double?, donors: Int, lastSeen: Double,
        version: Int64
    ) {
        self.id = id
        self.bundle = bundle
        self.activityType = activityType
        self.persistentIdentifier = persistentIdentifier
        self.webpageURL = webpageURL
        self.urlKey = urlKey
        self.relatedID = relatedID
        self.hasUserInfo = hasUserInfo
        self.expiresAt = expiresAt
        self.donors = donors
        self.lastSeen = lastSeen
        self.version = version
    }
}

/// A donated searchable item (`CSSearchableItem`).
package struct PublishAppItemRow: Sendable {
    package var bundle: String
    package var uniqueIdentifier: String
    package var expiresAt: Double?
    package var lastSeen: Double

    package init(
        bundle: String, uniqueIdentifier: String, expiresAt: Double?, lastSeen: Double
    ) {
        self.bundle = bundle
        self.uniqueIdentifier = uniqueIdentifier
        self.expiresAt = expiresAt
        self.lastSeen = lastSeen
    }
}

/// A cluster of the last publish, as stored.
package struct StoredClusterRow: Sendable {
    package var id: Int64
    package var key: String
    package var fingerprint: UInt64
    package var validUntil: Double?

    package init(
        id: Int64, key: String, fingerprint: UInt64, validUntil: Double?
    ) {
        self.id = id
        self.key = key
        self.fingerprint = fingerprint
        self.validUntil = validUntil
    }
}

/// The content of a stored activity: the fields a published item may take from it.
package struct ActivityContentRow: Sendable {
    package var id: Int64
    package var bundle: String
    package var activityType: String
    package var persistentIdentifier: String?
    package var relatedID: String?
    package var domainIdentifier: String?
    package var title: String?
    package var description: String?
    /// One keyword per line, as stored.
    package var keywords: String?
    package var thumbnailURL: String?
    package var rating: Double?
    package var ratingCount: Int?

    package init(
        id: Int64, bundle: String, activityType: String, persistentIdentifier: String?, relatedID: String?,
        domainIdentifier: String?, title: String?, description: String?, keywords: String?, thumbnailURL: String?,
        rating: Double?, ratingCount: Int?
    ) {
        self.id = id
        self.bundle = bundle
        self.activityType = activityType
        self.persistentIdentifier = persistentIdentifier
        self.relatedID = relatedID
        self.domainIdentifier = domainIdentifier
        self.title = title
        self.description = description
        self.keywords = keywords
        self.thumbnailURL = thumbnailURL
        self.rating = rating
        self.ratingCount = ratingCount
    }
}

/// A cluster a publish inserts (no ``storedID``) or rewrites, with its item when it is published.
package struct ClusterWrite: Sendable {
    package var storedID: Int64?
    package var key: String
    package var fingerprint: UInt64
    /// `published`, or the reason it is withheld.
    package var reason: String
    /// The report's `matchedBy` list, as JSON.
    package var matchedBy: String
    /// The report's member list, as JSON.
    package var members: String
    package var validUntil: Double?
    package var item: PublicItemWrite?
    /// The lowest id an item written after this cluster's can have (``PublishStart/prefersIDOrder``);
    /// `Int64.min` when nothing is known.
    package var laterItemsFrom: Int64 = .min

    package init(
        storedID: Int64?, key: String, fingerprint: UInt64, reason: String, matchedBy: String, members: String,
        validUntil: Double?, item: PublicItemWrite?
    ) {
        self.storedID = storedID
        self.key = key
        self.fingerprint = fingerprint
        self.reason = reason
        self.matchedBy = matchedBy
        self.members = members
        self.validUntil = validUntil
        self.item = item
    }
}

/// A `public_item` row: the published item, its columns for queries and its full-text vectors.
package struct PublicItemWrite: Sendable {
    /// The item's id in static rank order (``ItemRankOrder``).
    package var id: Int64
    package var uniqueIdentifier: String
    package var webpageURL: String?
    package var bundle: String?
    package var title: String
    package var description: String?
    package var keywords: String?
    package var domainIdentifier: String?
    package var rating: Double?
    package var ratingCount: Int?
    package var engagement: Int
    package var boost: Double
    /// The sources, comma-separated.
    package var sources: String
    package var expiresAt: Double?
    package var lastSeen: Double
    package var itemJSON: String
    package var titleFold: String
    /// SQLite: the item's row of the gram index, for text written without spaces.
    package var gramRow: GramRow?

    package init(
        id: Int64, uniqueIdentifier: String, webpageURL: String?, bundle: String?, title: String,
        description: String?, keywords: String?, domainIdentifier: String?, rating: Double?, ratingCount: Int?,
        engagement: Int, boost: Double, sources: String, expiresAt: Double?, lastSeen: Double, itemJSON: String,
        titleFold: String, gramRow: GramRow?
    ) {
        self.id = id
        self.uniqueIdentifier = uniqueIdentifier
        self.webpageURL = webpageURL
        self.bundle = bundle
        self.title = title
        self.description = description
        self.keywords = keywords
        self.domainIdentifier = domainIdentifier
        self.rating = rating
        self.ratingCount = ratingCount
        self.engagement = engagement
        self.boost = boost
        self.sources = sources
        self.expiresAt = expiresAt
        self.lastSeen = lastSeen
        self.itemJSON = itemJSON
        self.titleFold = titleFold
        self.gramRow = gramRow
    }
}

extension StoredClusterRow {
    /// A fingerprint as stored: 8 bytes, little-endian.
    package static func stored(_ fingerprint: UInt64) -> Data {
        withUnsafeBytes(of: fingerprint.littleEndian) { Data($0) }
    }

    /// The fingerprint `bytes` store (0 for anything but 8 bytes).
    package static func fingerprint(_ bytes: Data) -> UInt64 {
        guard bytes.count == 8 else { return 0 }
        return bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
}
