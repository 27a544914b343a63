internal import StrictJSON

/// How ``SearchableItem/init(jsonText:)`` reads the attribute set and the values it holds: each
/// property under the key ``AttributeSet/jsonValue`` writes it with, all of them optional.
extension AttributeSet {
    init(reading object: ItemObject) throws(ItemDecodingError) {
        self.init()
        title = try object.optional("title", ItemValue.string)
        contentDescription = try object.optional("contentDescription", ItemValue.string)
        keywords = try object.optional("keywords", ItemValue.strings)
        thumbnailURL = try object.optional("thumbnailURL", ItemValue.string)
        rating = try object.optional("rating", ItemValue.double)
        ratingCount = try object.optional("ratingCount", ItemValue.integer)
        offers = try object.optional("offers") { (value) throws(ItemDecodingError) in
            try ItemValue.array(value) { (offer) throws(ItemDecodingError) in
                try ItemValue.object(offer, Offer.init(reading:))
            }
        }
        priceRange = try object.optional("priceRange", ItemValue.string)
        interactionCount = try object.optional("interactionCount", ItemValue.integer)
        phoneNumbers = try object.optional("phoneNumbers", ItemValue.strings)
        supportsPhoneCall = try object.optional("supportsPhoneCall", ItemValue.bool)
        supportsNavigation = try object.optional("supportsNavigation", ItemValue.bool)
        address = try object.optional("address") { (value) throws(ItemDecodingError) in
            try ItemValue.object(value, PostalAddress.init(reading:))
        }
        latitude = try object.optional("latitude", ItemValue.double)
        longitude = try object.optional("longitude", ItemValue.double)
        media = try object.optional("media") { (value) throws(ItemDecodingError) in
            try ItemValue.array(value) { (medium) throws(ItemDecodingError) in
                try ItemValue.object(medium, MediaObject.init(reading:))
            }
        }
        recipe = try object.optional("recipe") { (value) throws(ItemDecodingError) in
            try ItemValue.object(value, RecipeDetails.init(reading:))
        }
        relatedUniqueIdentifier = try object.optional("relatedUniqueIdentifier", ItemValue.string)
        domainIdentifier = try object.optional("domainIdentifier", ItemValue.string)
    }
}

extension Offer {
    init(reading object: ItemObject) throws(ItemDecodingError) {
        self.init(
            price: try object.optional("price", ItemValue.string),
            priceCurrency: try object.optional("priceCurrency", ItemValue.string),
            highPrice: try object.optional("highPrice", ItemValue.string))
    }
}

extension PostalAddress {
    init(reading object: ItemObject) throws(ItemDecodingError) {
        self.init()
        streetAddress = try object.optional("streetAddress", ItemValue.string)
        addressLocality = try object.optional("addressLocality", ItemValue.string)
        addressRegion = try object.optional("addressRegion", ItemValue.string)
        postalCode = try object.optional("postalCode", ItemValue.string)
        addressCountry = try object.optional("addressCountry", ItemValue.string)
    }
}

extension MediaObject {
    init(reading object: ItemObject) throws(ItemDecodingError) {
        self.init(
            kind: try object.required("kind", ItemValue.string), url: try object.required("url", ItemValue.string))
    }
}

extension RecipeDetails {
    init(reading object: ItemObject) throws(ItemDecodingError) {
        self.init()
        name = try object.optional("name", ItemValue.string)
        image = try object.optional("image", ItemValue.string)
        totalTime = try object.optional("totalTime", ItemValue.string)
        recipeYield = try object.optional("recipeYield", ItemValue.string)
        rating = try object.optional("rating", ItemValue.double)
        ratingCount = try object.optional("ratingCount", ItemValue.integer)
    }
}
