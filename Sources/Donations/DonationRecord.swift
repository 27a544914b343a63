public import StrictJSON

/// One line of a donation file (SPEC §6): what an app donated, with Apple's property names.
public enum DonationRecord: Sendable, Hashable {
    /// A donated `NSUserActivity`.
    case userActivity(UserActivityRecord)
    /// A donated `CSSearchableItem` (on-device content, used only for linking).
    case searchableItem(SearchableItemRecord)
    /// A deletion (`CSSearchableIndex.deleteSearchableItems…`).
    case delete(DeletionRecord)

    /// The app the record belongs to; identifiers are scoped by it.
    public var bundleIdentifier: String {
        switch self {
        case .userActivity(let record): record.bundleIdentifier
        case .searchableItem(let record): record.bundleIdentifier
        case .delete(let record): record.bundleIdentifier
        }
    }
}

/// The attributes of `CSSearchableItemAttributeSet` a donation may carry.
public struct DonatedAttributes: Sendable, Hashable, Codable {
    /// The title shown in results.
    public var title: String?
    /// The description shown in results.
    public var contentDescription: String?
    /// An absolute http(s) image URL.
    public var thumbnailURL: String?
    /// Search keywords.
    public var keywords: [String]?
    /// The `uniqueIdentifier` of the searchable item this record belongs to (it must exist).
    public var relatedUniqueIdentifier: String?
    /// A related item that need not exist.
    public var weakRelatedUniqueIdentifier: String?
    /// A dotted group (`recipes.desserts`), for deletion by domain.
    public var domainIdentifier: String?
    /// An absolute http(s) URL of the content.
    public var contentURL: String?
    /// A rating, ≥ 0.
    public var rating: Double?
    /// How many ratings.
    public var ratingCount: Int?

    /// Creates attributes.
    public init(
        title: String? = nil, contentDescription: String? = nil, thumbnailURL: String? = nil,
        keywords: [String]? = nil, relatedUniqueIdentifier: String? = nil, weakRelatedUniqueIdentifier: String? = nil,
        domainIdentifier: String? = nil, contentURL: String? = nil, rating: Double? = nil, ratingCount: Int? = nil
    ) {
        self.title = title
        self.contentDescription = contentDescription
        self.thumbnailURL = thumbnailURL
        self.keywords = keywords
        self.relatedUniqueIdentifier = relatedUniqueIdentifier
        self.weakRelatedUniqueIdentifier = weakRelatedUniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.contentURL = contentURL
        self.rating = rating
        self.ratingCount = ratingCount
    }
}

/// A donated `NSUserActivity`. Of `userInfo`, only the `requiredUserInfoKeys` survive reading.
public struct UserActivityRecord: Sendable, Hashable, Codable {
    /// The app; identifiers are scoped by it.
    public var bundleIdentifier: String
    /// Who donated it (a device or account token): distinct donors are the engagement count.
    public var donor: String
    /// The app-defined activity type.
    public var activityType: String
    /// The title shown in results.
    public var title: String?
    /// The public web page for the activity (absolute http or https).
    public var webpageURL: String?
    /// After reading, only the `requiredUserInfoKeys` values, each in the canonical form the reader gives
    /// it (numbers as their `Double` is written, object members sorted by key, the first of a repeated key
    /// kept), so equal values are equal and serialize to equal text.
    public var userInfo: [String: JSONValue]?
    /// The `userInfo` keys needed to restore the activity: the only ones kept.
    public var requiredUserInfoKeys: [String]?
    /// Search keywords.
    public var keywords: [String]?
    /// The app's identifier for the activity.
    public var persistentIdentifier: String?
    /// ISO 8601, as donated.
    public var expirationDate: String?
    /// Apple's flag: may appear in on-device search.
    public var isEligibleForSearch: Bool?
    /// Apple's flag: may be published (also needs the engagement threshold).
    public var isEligibleForPublicIndexing: Bool?
    /// Apple's flag: Handoff.
    public var isEligibleForHandoff: Bool?
    /// Apple's flag: Siri predictions.
    public var isEligibleForPrediction: Bool?
    /// The attributes shown in results.
    public var contentAttributeSet: DonatedAttributes?
}

/// A donated `CSSearchableItem`.
public struct SearchableItemRecord: Sendable, Hashable, Codable {
    /// The app; identifiers are scoped by it.
    public var bundleIdentifier: String
    /// The item's identifier within the bundle.
    public var uniqueIdentifier: String
    /// A dotted group (`recipes.desserts`), for deletion by domain.
    public var domainIdentifier: String?
    /// ISO 8601, as donated.
    public var expirationDate: String?
    /// The attributes shown in results.
    public var attributeSet: DonatedAttributes?
}

/// A deletion: by identifiers, by (hierarchical) domain identifiers, or everything of a bundle.
public struct DeletionRecord: Sendable, Hashable, Codable {
    /// The app; identifiers are scoped by it.
    public var bundleIdentifier: String
    /// Delete these items.
    public var uniqueIdentifiers: [String]?
    /// Delete the items of these domains and their subdomains (`a` also deletes `a.b`).
    public var domainIdentifiers: [String]?
    /// Delete everything of the bundle (must be `true` when given).
    public var all: Bool?

    /// Creates a deletion; exactly one of the three ways should be given.
    public init(
        bundleIdentifier: String, uniqueIdentifiers: [String]? = nil, domainIdentifiers: [String]? = nil,
        all: Bool? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.uniqueIdentifiers = uniqueIdentifiers
        self.domainIdentifiers = domainIdentifiers
        self.all = all
    }
}
