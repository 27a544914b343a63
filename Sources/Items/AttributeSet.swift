/// The searchable attributes of an item, modelled on `CSSearchableItemAttributeSet`.
///
/// Every property is optional or empty by default; JSON omits what is absent.
public struct AttributeSet: Sendable, Hashable {
    /// The title shown in results.
    public var title: String?
    /// The description shown under the title.
    public var contentDescription: String?
    /// Search keywords, deduplicated, at most ten.
    public var keywords: [String]?
    /// An absolute image URL.
    public var thumbnailURL: String?
    /// The rating on a 0–5 scale.
    public var rating: Double?
    /// How many ratings or reviews the rating summarizes.
    public var ratingCount: Int?
    /// Prices.
    public var offers: [Offer]?
    /// A price range such as `"€€"`.
    public var priceRange: String?
    /// How often the content was interacted with (views, likes, plays).
    public var interactionCount: Int?
    /// Phone numbers for the "call" action.
    public var phoneNumbers: [String]?
    /// Whether the result offers a "call" action.
    public var supportsPhoneCall: Bool?
    /// Whether the result offers a "directions" action.
    public var supportsNavigation: Bool?
    /// A postal address.
    public var address: PostalAddress?
    /// Latitude of the place, for directions.
    public var latitude: Double?
    /// Longitude of the place, for directions.
    public var longitude: Double?
    /// Playable media (the "play" action).
    public var media: [MediaObject]?
    /// Recipe details.
    public var recipe: RecipeDetails?
    /// The donated item this activity relates to.
    public var relatedUniqueIdentifier: String?
    /// The hierarchical group of a donated item (`"recipes.desserts"`).
    public var domainIdentifier: String?

    /// An empty attribute set.
    public init() {}
}

/// A price.
public struct Offer: Sendable, Hashable {
    /// The price as written (`"12.00"`), or the low end of a range.
    public var price: String?
    /// The ISO 4217 currency.
    public var priceCurrency: String?
    /// The high end of an `AggregateOffer`'s range.
    public var highPrice: String?

    /// Creates an offer.
    public init(price: String? = nil, priceCurrency: String? = nil, highPrice: String? = nil) {
        self.price = price
        self.priceCurrency = priceCurrency
        self.highPrice = highPrice
    }
}

/// A postal address (schema.org `PostalAddress`).
public struct PostalAddress: Sendable, Hashable {
    public var streetAddress: String?
    public var addressLocality: String?
    public var addressRegion: String?
    public var postalCode: String?
    public var addressCountry: String?

    /// An empty address.
    public init() {}

    /// Whether no part is set.
    public var isEmpty: Bool {
        [streetAddress, addressLocality, addressRegion, postalCode, addressCountry].allSatisfy { $0 == nil }
    }
}

/// Something the result can play.
public struct MediaObject: Sendable, Hashable {
    /// `audio` or `video`.
    public var kind: String
    /// The absolute media URL.
    public var url: String

    /// Creates a media object.
    public init(kind: String, url: String) {
        self.kind = kind
        self.url = url
    }
}

/// What a recipe result shows (schema.org `Recipe`).
public struct RecipeDetails: Sendable, Hashable {
    public var name: String?
    public var image: String?
    /// ISO 8601 duration as written (`"PT1H30M"`).
    public var totalTime: String?
    public var recipeYield: String?
    public var rating: Double?
    public var ratingCount: Int?

    /// Empty recipe details.
    public init() {}
}
