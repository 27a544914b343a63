/// The searchable attributes of an item, modelled on `CSSearchableItemAttributeSet`.
///
/// Every property is optional or empty by default; JSON omits what is absent.
package struct AttributeSet: Sendable, Hashable {
    /// The title shown in results.
    package var title: String?
    /// The description shown under the title.
    package var contentDescription: String?
    /// Search keywords, deduplicated, at most ten.
    package var keywords: [String]?
    /// An absolute image URL.
    package var thumbnailURL: String?
    /// The rating on a 0–5 scale.
    package var rating: Double?
    /// How many ratings or reviews the rating summarizes.
    package var ratingCount: Int?
    /// Prices.
    package var offers: [Offer]?
    /// A price range such as `"€€"`.
    package var priceRange: String?
    /// How often the content was interacted with (views, likes, plays).
    package var interactionCount: Int?
    /// Phone numbers for the "call" action.
    package var phoneNumbers: [String]?
    /// Whether the result offers a "call" action.
    package var supportsPhoneCall: Bool?
    /// Whether the result offers a "directions" action.
    package var supportsNavigation: Bool?
    /// A postal address.
    package var address: PostalAddress?
    /// Latitude of the place, for directions.
    package var latitude: Double?
    /// Longitude of the place, for directions.
    package var longitude: Double?
    /// Playable media (the "play" action).
    package var media: [MediaObject]?
    /// Recipe details.
    package var recipe: RecipeDetails?
    /// The donated item this activity relates to.
    package var relatedUniqueIdentifier: String?
    /// The hierarchical group of a donated item (`"recipes.desserts"`).
    package var domainIdentifier: String?

    /// An empty attribute set.
    package init() {}
}

/// A price.
package struct Offer: Sendable, Hashable {
    /// The price as written (`"12.00"`), or the low end of a range.
    package var price: String?
    /// The ISO 4217 currency.
    package var priceCurrency: String?
    /// The high end of an `AggregateOffer`'s range.
    package var highPrice: String?

    /// Creates an offer.
    package init(price: String? = nil, priceCurrency: String? = nil, highPrice: String? = nil) {
        self.price = price
        self.priceCurrency = priceCurrency
        self.highPrice = highPrice
    }
}

/// A postal address (schema.org `PostalAddress`).
package struct PostalAddress: Sendable, Hashable {
    package var streetAddress: String?
    package var addressLocality: String?
    package var addressRegion: String?
    package var postalCode: String?
    package var addressCountry: String?

    /// An empty address.
    package init() {}

    /// Whether no part is set.
    package var isEmpty: Bool {
        [streetAddress, addressLocality, addressRegion, postalCode, addressCountry].allSatisfy { $0 == nil }
    }
}

/// Something the result can play.
package struct MediaObject: Sendable, Hashable {
    /// `audio` or `video`.
    package var kind: String
    /// The absolute media URL.
    package var url: String

    /// Creates a media object.
    package init(kind: String, url: String) {
        self.kind = kind
        self.url = url
    }
}

/// What a recipe result shows (schema.org `Recipe`).
package struct RecipeDetails: Sendable, Hashable {
    package var name: String?
    package var image: String?
    /// ISO 8601 duration as written (`"PT1H30M"`).
    package var totalTime: String?
    package var recipeYield: String?
    package var rating: Double?
    package var ratingCount: Int?

    /// Empty recipe details.
    package init() {}
}
