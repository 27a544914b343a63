import Markup
package import StrictJSON

/// The item's one JSON codec, encoding half: SPEC §6's published-item shape, the text the crawler
/// stores for a page (`page.item_json`) and publishing writes for a public item
/// (`public_item.item_json`). ``SearchableItem/init(jsonText:)`` is the decoding half. Stores hold this
/// text, so its bytes must not change for the same item.
extension SearchableItem {
    /// The item as compact JSON text (``jsonValue`` serialized).
    package var jsonText: String { jsonValue.serialized() }

    /// The item in SPEC §6's published-item shape, keys in the documented order, absent
    /// values left out.
    package var jsonValue: JSONValue {
        var members: [JSONMember] = [JSONMember("uniqueIdentifier", .string(uniqueIdentifier))]
        if let webpageURL { members.append(JSONMember("webpageURL", .string(webpageURL))) }
        members.append(JSONMember("sources", .array(sources.map { .string($0.rawValue) })))
        members.append(JSONMember("attributeSet", attributeSet.jsonValue))
        members.append(JSONMember("deepLinks", .array(deepLinks.map(\.jsonValue))))
        if let searchAction { members.append(JSONMember("searchAction", .string(searchAction))) }
        members.append(JSONMember("engagement", .number(engagement)))
        if let expirationDate { members.append(JSONMember("expirationDate", .string(expirationDate))) }
        return .object(members)
    }
}

extension DeepLink {
    /// The deep link as JSON: `kind`, then whatever is known.
    package var jsonValue: JSONValue {
        var members: [JSONMember] = [JSONMember("kind", .string(kind.rawValue))]
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
    package var jsonValue: JSONValue {
        var members: [JSONMember] = []
        members.appendIfPresent("title", title)
        members.appendIfPresent("contentDescription", contentDescription)
        if let keywords { members.append(JSONMember("keywords", .array(keywords.map(JSONValue.string)))) }
        members.appendIfPresent("thumbnailURL", thumbnailURL)
        if let rating { members.append(JSONMember("rating", .number(rating))) }
        if let ratingCount { members.append(JSONMember("ratingCount", .number(ratingCount))) }
        if let offers {
            members.append(
                JSONMember(
                    "offers",
                    .array(
                        offers.map { offer in
                            var fields: [JSONMember] = []
                            fields.appendIfPresent("price", offer.price)
                            fields.appendIfPresent("priceCurrency", offer.priceCurrency)
                            fields.appendIfPresent("highPrice", offer.highPrice)
                            return .object(fields)
                        })
                ))
        }
        members.appendIfPresent("priceRange", priceRange)
        if let interactionCount { members.append(JSONMember("interactionCount", .number(interactionCount))) }
        if let phoneNumbers { members.append(JSONMember("phoneNumbers", .array(phoneNumbers.map(JSONValue.string)))) }
        if let supportsPhoneCall { members.append(JSONMember("supportsPhoneCall", .bool(supportsPhoneCall))) }
        if let supportsNavigation { members.append(JSONMember("supportsNavigation", .bool(supportsNavigation))) }
        if let address {
            var fields: [JSONMember] = []
            fields.appendIfPresent("streetAddress", address.streetAddress)
            fields.appendIfPresent("addressLocality", address.addressLocality)
            fields.appendIfPresent("addressRegion", address.addressRegion)
            fields.appendIfPresent("postalCode", address.postalCode)
            fields.appendIfPresent("addressCountry", address.addressCountry)
            members.append(JSONMember("address", .object(fields)))
        }
        if let latitude { members.append(JSONMember("latitude", .number(latitude))) }
        if let longitude { members.append(JSONMember("longitude", .number(longitude))) }
        if let media {
            members.append(
                JSONMember(
                    "media",
                    .array(
                        media.map {
                            .object([JSONMember("kind", .string($0.kind)), JSONMember("url", .string($0.url))])
                        })))
        }
        if let recipe {
            var fields: [JSONMember] = []
            fields.appendIfPresent("name", recipe.name)
            fields.appendIfPresent("image", recipe.image)
            fields.appendIfPresent("totalTime", recipe.totalTime)
            fields.appendIfPresent("recipeYield", recipe.recipeYield)
            if let rating = recipe.rating { fields.append(JSONMember("rating", .number(rating))) }
            if let count = recipe.ratingCount { fields.append(JSONMember("ratingCount", .number(count))) }
            members.append(JSONMember("recipe", .object(fields)))
        }
        members.appendIfPresent("relatedUniqueIdentifier", relatedUniqueIdentifier)
        members.appendIfPresent("domainIdentifier", domainIdentifier)
        return .object(members)
    }

    /// A double as JSON text: whole numbers without a fraction (`4`), others as Swift prints them (`4.5`).
    package static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension Array where Element == JSONMember {
    mutating func appendIfPresent(_ key: String, _ value: String?) {
        if let value { append(JSONMember(key, .string(value))) }
    }
}
