package import StrictJSON

/// One line of a donation file (SPEC §6): what an app donated, with Apple's property names.
package enum DonationRecord: Sendable, Hashable {
    /// A donated `NSUserActivity`.
    case userActivity(UserActivityRecord)
    /// A donated `CSSearchableItem` (on-device content, used only for linking).
    case searchableItem(SearchableItemRecord)
    /// A deletion (`CSSearchableIndex.deleteSearchableItems…`).
    case delete(DeletionRecord)

    /// The app the record belongs to; identifiers are scoped by it.
    package var bundleIdentifier: String {
        switch self {
        case .userActivity(let record): record.bundleIdentifier
        case .searchableItem(let record): record.bundleIdentifier
        case .delete(let record): record.bundleIdentifier
        }
    }
}

/// The attributes of `CSSearchableItemAttributeSet` a donation may carry.
package struct DonatedAttributes: Sendable, Hashable, Codable {
    /// The title shown in results.
    package var title: String?
    /// The description shown in results.
    package var contentDescription: String?
    /// An absolute http(s) image URL.
    package var thumbnailURL: String?
    /// Search keywords.
    package var keywords: [String]?
    /// The `uniqueIdentifier` of the searchable item this record belongs to (it must exist).
    package var relatedUniqueIdentifier: String?
    /// A related item that need not exist.
    package var weakRelatedUniqueIdentifier: String?
    /// A dotted group (`recipes.desserts`), for deletion by domain.
    package var domainIdentifier: String?
    /// An absolute http(s) URL of the content.
    package var contentURL: String?
    /// A rating, ≥ 0.
    package var rating: Double?
    /// How many ratings.
    package var ratingCount: Int?

    /// Creates attributes.
    package init(
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
package struct UserActivityRecord: Sendable, Hashable, Codable {
    /// The app; identifiers are scoped by it.
    package var bundleIdentifier: String
    /// Who donated it (a device or account token): distinct donors are the engagement count.
    package var donor: String
    /// The app-defined activity type.
    package var activityType: String
    /// The title shown in results.
    package var title: String?
    /// The public web page for the activity (absolute http or https).
    package var webpageURL: String?
    /// After reading, only the `requiredUserInfoKeys` values, each in the canonical form the reader gives
    /// it (numbers as their `Double` is written, object members sorted by key, the first of a repeated key
    /// kept), so equal values are equal and serialize to equal text.
    package var userInfo: [String: JSONValue]?
    /// The `userInfo` keys needed to restore the activity: the only ones kept.
    package var requiredUserInfoKeys: [String]?
    /// Search keywords.
    package var keywords: [String]?
    /// The app's identifier for the activity.
    package var persistentIdentifier: String?
    /// ISO 8601, as donated.
    package var expirationDate: String?
    /// Apple's flag: may appear in on-device search.
    package var isEligibleForSearch: Bool?
    /// Apple's flag: may be published (also needs the engagement threshold).
    package var isEligibleForPublicIndexing: Bool?
    /// Apple's flag: Handoff.
    package var isEligibleForHandoff: Bool?
    /// Apple's flag: Siri predictions.
    package var isEligibleForPrediction: Bool?
    /// The attributes shown in results.
    package var contentAttributeSet: DonatedAttributes?
}

/// A donated `CSSearchableItem`.
package struct SearchableItemRecord: Sendable, Hashable, Codable {
    /// The app; identifiers are scoped by it.
    package var bundleIdentifier: String
    /// The item's identifier within the bundle.
    package var uniqueIdentifier: String
    /// A dotted group (`recipes.desserts`), for deletion by domain.
    package var domainIdentifier: String?
    /// ISO 8601, as donated.
    package var expirationDate: String?
    /// The attributes shown in results.
    package var attributeSet: DonatedAttributes?
}

/// A deletion: by identifiers, by (hierarchical) domain identifiers, or everything of a bundle.
package struct DeletionRecord: Sendable, Hashable, Codable {
    /// The app; identifiers are scoped by it.
    package var bundleIdentifier: String
    /// Delete these items.
    package var uniqueIdentifiers: [String]?
    /// Delete the items of these domains and their subdomains (`a` also deletes `a.b`).
    package var domainIdentifiers: [String]?
    /// Delete everything of the bundle (must be `true` when given).
    package var all: Bool?

    /// Creates a deletion; exactly one of the three ways should be given.
    package init(
        bundleIdentifier: String, uniqueIdentifiers: [String]? = nil, domainIdentifiers: [String]? = nil,
        all: Bool? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.uniqueIdentifiers = uniqueIdentifiers
        self.domainIdentifiers = domainIdentifiers
        self.all = all
    }
}
