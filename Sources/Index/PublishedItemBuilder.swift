import Bridge
import Foundation
import Items
import Store

/// One row of `public_item`: the columns search and the query language read, and the SPEC §6 item in its
/// stored form (``StoredItem/storedJSON(_:)``: without the title, description and keywords of the columns).
struct PublicItemRow {
    var uniqueIdentifier: String
    var webpageURL: String?
    var bundle: String?
    var title: String
    var description: String?
    var keywords: String?
    var domainIdentifier: String?
    var rating: Double?
    var ratingCount: Int?
    var engagement: Int
    var sources: [String]
    var expiresAt: Double?
    var lastSeen: Double
    var itemJSON: String
}

/// The content of a stored activity, as an item's fields.
struct ActivityContent {
    var id: Int64
    var bundle: String
    var activityType: String
    var persistentIdentifier: String?
    var relatedID: String?
    var domainIdentifier: String?
    var title: String?
    var description: String?
    var keywords: [String]
    var thumbnailURL: String?
    var rating: Double?
    var ratingCount: Int?

    init(_ row: ActivityContentRow) {
        id = row.id
        bundle = row.bundle
        activityType = row.activityType
        persistentIdentifier = row.persistentIdentifier
        relatedID = row.relatedID
        domainIdentifier = row.domainIdentifier
        title = row.title
        description = row.description
        keywords = row.keywords.map { $0.split(separator: "\n").map(String.init) } ?? []
        thumbnailURL = row.thumbnailURL
        rating = row.rating
        ratingCount = row.ratingCount
    }

    /// Sets the attributes `attributes` lacks from this activity. A field already set, by the page's
    /// markup or a more engaged activity, wins even when it is empty.
    func fillGaps(in attributes: inout AttributeSet) {
        if attributes.title == nil { attributes.title = title }
        if attributes.contentDescription == nil { attributes.contentDescription = description }
        if attributes.keywords == nil, !keywords.isEmpty { attributes.keywords = keywords }
        if attributes.thumbnailURL == nil { attributes.thumbnailURL = thumbnailURL }
        if attributes.rating == nil { attributes.rating = rating }
        if attributes.ratingCount == nil { attributes.ratingCount = ratingCount }
        if attributes.relatedUniqueIdentifier == nil { attributes.relatedUniqueIdentifier = relatedID }
        if attributes.domainIdentifier == nil { attributes.domainIdentifier = domainIdentifier }
    }
}

/// Builds a cluster's one public item with SPEC §4's field precedence: the crawled page's markup,
/// then the activities' `contentAttributeSet`, then the activities themselves (stored already merged
/// in that order); among activities, the most engaged first.
///
/// The item is a ``SearchableItem`` throughout: the page's stored item comes decoded
/// (``SearchableItem/init(jsonText:)``), and the published text is the same codec's
/// ``SearchableItem/jsonText`` (stored as ``StoredItem/storedJSON(_:)``), so a field of the item needs no
/// code here to be carried through.
enum PublishedItemBuilder {
    /// The cluster's item row, or `nil` when it has no title.
    /// - Parameter page: The representative page: its canonical key (the published identity) and its
    ///   stored item, `nil` when it has none or what is stored does not decode.
    static func build(
        plan: ClusterPlan, activityIDs: [Int64], page: (canonicalURL: String, item: SearchableItem?)?,
        contents: [Int64: ActivityContent], expirySeconds: Double
    ) -> PublicItemRow? {
        let activities = activityIDs.compactMap { contents[$0] }
        var expiry = plan.lastSeen + expirySeconds
        if let expiresAt = plan.expiresAt { expiry = min(expiry, expiresAt) }
        var sources: [SearchableItem.Source] = []
        if page != nil { sources.append(.web) }
        if !activities.isEmpty { sources.append(.activity) }

        // The store may hold a page crawled before a URL rule existed: the rules apply again here, before
        // the activities fill the gaps (a refused thumbnail leaves room for an activity's).
        let markup = page?.item?.withoutRefusedURLs()
        var attributes = markup?.attributeSet ?? AttributeSet()
        for activity in activities { activity.fillGaps(in: &attributes) }
        let uniqueIdentifier = page?.canonicalURL ?? activities.first.map(identifier(of:)) ?? plan.key
        var item = SearchableItem(
            uniqueIdentifier: uniqueIdentifier, webpageURL: page?.canonicalURL, sources: sources,
            attributeSet: attributes, deepLinks: markup?.deepLinks ?? [], searchAction: markup?.searchAction,
            engagement: plan.engagement,
            expirationDate: Date(timeIntervalSince1970: expiry).formatted(.iso8601)
        ).withoutControlCharacters()
        // Stores written before text was cleaned on the way in still publish clean text; the identity is
        // matched (lookups, deletions) and is published exactly as the row's key.
        item.uniqueIdentifier = uniqueIdentifier
        item.webpageURL = page?.canonicalURL
        guard let title = item.attributeSet.title, !title.isEmpty else { return nil }

        let published = item.attributeSet
        return PublicItemRow(
            uniqueIdentifier: uniqueIdentifier, webpageURL: page?.canonicalURL, bundle: activities.first?.bundle,
            title: title, description: published.contentDescription,
            keywords: published.keywords?.joined(separator: "\n"), domainIdentifier: published.domainIdentifier,
            rating: published.rating, ratingCount: published.ratingCount, engagement: plan.engagement,
            sources: sources.map(\.rawValue), expiresAt: expiry, lastSeen: plan.lastSeen,
            itemJSON: StoredItem.storedJSON(item))
    }

    /// The identity of an item with no web page: scoped by the app, from its link to a searchable item,
    /// else its persistent identifier (activity types differ in what they identify).
    private static func identifier(of activity: ActivityContent) -> String {
        if let related = activity.relatedID { return "app:\(activity.bundle):\(related)" }
        let local = activity.persistentIdentifier ?? "activity-\(activity.id)"
        return "app:\(activity.bundle):\(activity.activityType):\(local)"
    }
}
