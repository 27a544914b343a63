import Bridge
import Foundation
import GRDB
import Items
import Markup

/// One row of `public_item`: the columns search and the query language read, and the SPEC §6 item.
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

    init(_ row: Row) {
        id = row["id"]
        bundle = row["bundle"]
        activityType = row["activity_type"]
        persistentIdentifier = row["persistent_identifier"]
        relatedID = row["related_id"]
        domainIdentifier = row["domain_identifier"]
        title = row["title"]
        description = row["description"]
        keywords = (row["keywords"] as String?).map { $0.split(separator: "\n").map(String.init) } ?? []
        thumbnailURL = row["thumbnail_url"]
        rating = row["rating"]
        ratingCount = row["rating_count"]
    }
}

/// Builds a cluster's one public item with SPEC §4's field precedence: the crawled page's markup,
/// then the activities' `contentAttributeSet`, then the activities themselves (stored already merged
/// in that order); among activities, the most engaged first.
enum PublishedItemBuilder {
    static func build(
        plan: ClusterPlan, activityIDs: [Int64], page: (canonicalURL: String, itemJSON: String?)?,
        contents: [Int64: ActivityContent], expirySeconds: Double
    ) -> PublicItemRow? {
        let activities = activityIDs.compactMap { contents[$0] }
        var expiry = plan.lastSeen + expirySeconds
        if let expiresAt = plan.expiresAt { expiry = min(expiry, expiresAt) }
        let expirationText = Date(timeIntervalSince1970: expiry).formatted(.iso8601)
        var sources: [String] = []
        if page != nil { sources.append("web") }
        if !activities.isEmpty { sources.append("activity") }

        var attributes: [(key: String, value: JSONValue)] = []
        var base: [(key: String, value: JSONValue)] = []
        if let page, let text = page.itemJSON, case .success(let block) = JSONLD.parse(text, startLine: 1),
            case .object(let members) = block.value
        {
            base = members
            if case .object(let set)? = block.value["attributeSet"] { attributes = attributesWithSafeURLs(set) }
        }
        func fill(_ key: String, _ value: JSONValue?) {
            guard let value, !attributes.contains(where: { $0.key == key }) else { return }
            attributes.append((key, value))
        }
        for activity in activities {
            fill("title", activity.title.map(JSONValue.string))
            fill("contentDescription", activity.description.map(JSONValue.string))
            fill("keywords", activity.keywords.isEmpty ? nil : .array(activity.keywords.map(JSONValue.string)))
            fill("thumbnailURL", activity.thumbnailURL.map(JSONValue.string))
            fill("rating", activity.rating.map { .number(AttributeSet.format($0)) })
            fill("ratingCount", activity.ratingCount.map { .number(String($0)) })
            fill("relatedUniqueIdentifier", activity.relatedID.map(JSONValue.string))
            fill("domainIdentifier", activity.domainIdentifier.map(JSONValue.string))
        }
        attributes = attributes.map { ($0.key, $0.value.withoutControlCharacters()) }
        guard let title = attributes.first(where: { $0.key == "title" })?.value.stringValue, !title.isEmpty else {
            return nil
        }
        let uniqueIdentifier = page?.canonicalURL ?? activities.first.map(identifier(of:)) ?? plan.key
        var item: [(key: String, value: JSONValue)] = [("uniqueIdentifier", .string(uniqueIdentifier))]
        if let url = page?.canonicalURL { item.append(("webpageURL", .string(url))) }
        item.append(("sources", .array(sources.map(JSONValue.string))))
        item.append(("attributeSet", .object(attributes)))
        let deepLinks = base.first { $0.key == "deepLinks" }?.value
        item.append(("deepLinks", deepLinksWithSafeURLs(deepLinks).withoutControlCharacters()))
        if let action = base.first(where: { $0.key == "searchAction" }), isSafe(action.value, .web) {
            item.append((action.key, action.value.withoutControlCharacters()))
        }
        item.append(("engagement", .number(String(plan.engagement))))
        item.append(("expirationDate", .string(expirationText)))

        let attribute = { (key: String) in attributes.first { $0.key == key }?.value }
        return PublicItemRow(
            uniqueIdentifier: uniqueIdentifier, webpageURL: page?.canonicalURL, bundle: activities.first?.bundle,
            title: title,
            description: attribute("contentDescription")?.stringValue,
            keywords: attribute("keywords").map { $0.listValue.compactMap(\.stringValue).joined(separator: "\n") },
            domainIdentifier: attribute("domainIdentifier")?.stringValue, rating: attribute("rating")?.doubleValue,
            ratingCount: attribute("ratingCount")?.doubleValue.map { Int($0) }, engagement: plan.engagement,
            sources: sources, expiresAt: expiry, lastSeen: plan.lastSeen,
            itemJSON: JSONValue.object(item).serialized())
    }

    /// The identity of an item with no web page: scoped by the app, from its link to a searchable item,
    /// else its persistent identifier (activity types differ in what they identify).
    private static func identifier(of activity: ActivityContent) -> String {
        if let related = activity.relatedID { return "app:\(activity.bundle):\(related)" }
        let local = activity.persistentIdentifier ?? "activity-\(activity.id)"
        return "app:\(activity.bundle):\(activity.activityType):\(local)"
    }
}
