import Markup

/// The item's one JSON codec, encoding half: SPEC §6's published-item shape, the text the crawler
/// stores for a page (`page.item_json`) and publishing writes for a public item
/// (`public_item.item_json`). ``SearchableItem/init(jsonText:)`` is the decoding half. Stores hold this
/// text, so its bytes must not change for the same item.
extension SearchableItem {
    /// The item as compact JSON text (``jsonValue`` serialized).
    package var jsonText: String { jsonValue.serialized() }

    /// The item in SPEC §6's published-item shape, keys in the documented order, absent
    /// values left out.
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("uniqueIdentifier", .string(uniqueIdentifier))]
        if let webpageURL { members.append(("webpageURL", .string(webpageURL))) }
        members.append(("sources", .array(sources.map { .string($0.rawValue) })))
        members.append(("attributeSet", attributeSet.jsonValue))
        members.append(("deepLinks", .array(deepLinks.map(\.jsonValue))))
        if let searchAction { members.append(("searchAction", .string(searchAction))) }
        members.append(("engagement", .number(String(engagement))))
        if let expirationDate { members.append(("expirationDate", .string(expirationDate))) }
        return .object(members)
    }
}

extension DeepLink {
    /// The deep link as JSON: `kind`, then whatever is known.
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("kind", .string(kind.rawValue))]
        members.appendIfPresent("appStoreID", appStoreID)
        members.appendIfPresent("appName", appName)
        members.appendIfPresent("url", url)
        members.appendIfPresent("platform", platform)
        members.appendIfPresent("appClipBundleID", appClipBundleID)
        members.appendIfPresent("appID", appID)
        return .object(members)
    }
}

extension AttributeSet {
    /// The attribute set as JSON, in SPEC §6's order.
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        members.appendIfPresent("title", title)
        members.appendIfPresent("contentDescription", contentDescription)
        if let keywords { members.append(("keywords", .array(keywords.map(JSONValue.string)))) }
        members.appendIfPresent("thumbnailURL", thumbnailURL)
        if let rating { members.append(("rating", .number(Self.format(rating)))) }
        if let ratingCount { members.append(("ratingCount", .number(String(ratingCount)))) }
        if let offers {
            members.append(
                (
                    "offers",
                    .array(
                        offers.map { offer in
                            var fields: [(key: String, value: JSONValue)] = []
                            fields.appendIfPresent("price", offer.price)
                            fields.appendIfPresent("priceCurrency", offer.priceCurrency)
                            fields.appendIfPresent("highPrice", offer.highPrice)
                            return .object(fields)
                        })
                ))
        }
        members.appendIfPresent("priceRange", priceRange)
        if let interactionCount { members.append(("interactionCount", .number(String(interactionCount)))) }
        if let phoneNumbers { members.append(("phoneNumbers", .array(phoneNumbers.map(JSONValue.string)))) }
        if let supportsPhoneCall { members.append(("supportsPhoneCall", .bool(supportsPhoneCall))) }
        if let supportsNavigation { members.append(("supportsNavigation", .bool(supportsNavigation))) }
        if let address {
            var fields: [(key: String, value: JSONValue)] = []
            fields.appendIfPresent("streetAddress", address.streetAddress)
            fields.appendIfPresent("addressLocality", address.addressLocality)
            fields.appendIfPresent("addressRegion", address.addressRegion)
            fields.appendIfPresent("postalCode", address.postalCode)
            fields.appendIfPresent("addressCountry", address.addressCountry)
            members.append(("address", .object(fields)))
        }
        if let latitude { members.append(("latitude", .number(Self.format(latitude)))) }
        if let longitude { members.append(("longitude", .number(Self.format(longitude)))) }
        if let media {
            members.append(
                ("media", .array(media.map { .object([("kind", .string($0.kind)), ("url", .string($0.url))]) })))
        }
        if let recipe {
            var fields: [(key: String, value: JSONValue)] = []
            fields.appendIfPresent("name", recipe.name)
            fields.appendIfPresent("image", recipe.image)
            fields.appendIfPresent("totalTime", recipe.totalTime)
            fields.appendIfPresent("recipeYield", recipe.recipeYield)
            if let rating = recipe.rating { fields.append(("rating", .number(Self.format(rating)))) }
            if let count = recipe.ratingCount { fields.append(("ratingCount", .number(String(count)))) }
            members.append(("recipe", .object(fields)))
        }
        members.appendIfPresent("relatedUniqueIdentifier", relatedUniqueIdentifier)
        members.appendIfPresent("domainIdentifier", domainIdentifier)
        return .object(members)
    }

    /// A double as JSON text: whole numbers without a fraction (`4`), others as Swift prints them (`4.5`).
    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension Array where Element == (key: String, value: JSONValue) {
    mutating func appendIfPresent(_ key: String, _ value: String?) {
        if let value { append((key, .string(value))) }
    }
}
