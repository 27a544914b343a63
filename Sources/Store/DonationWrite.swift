import Foundation

/// One donated record as a ``DonationStore`` writes it: what is identifying is already a keyed hash.
public enum DonationWrite: Sendable, Hashable {
    /// A record that may never be published: counted once, by its hash, its content never stored.
    case withheld(hash: Data, bundle: String, reason: String)
    /// One donor's donation of an activity (both hashed), and the content stored once enough donors gave it.
    case activity(identity: Data, donor: Data, content: DonatedActivity)
    /// A searchable item: added, or updated when its domain or expiry changed.
    case searchableItem(DonatedItem)
    /// A deletion, applied where it stands among the records.
    case delete(ItemDeletion)
}

/// The stored form of an activity that reached the engagement threshold (`activity` row): the fields a
/// published item may show, and of `userInfo` only the required keys.
public struct DonatedActivity: Sendable, Hashable {
    public var bundle: String
    public var activityType: String
    public var webpageURL: String?
    /// The canonical key of ``webpageURL``: the page the crawler is asked to fetch.
    public var urlKey: String?
    public var persistentIdentifier: String?
    public var relatedID: String?
    public var weakRelatedID: String?
    public var domainIdentifier: String?
    public var title: String?
    public var description: String?
    /// Newline-separated keywords.
    public var keywords: String?
    public var thumbnailURL: String?
    public var rating: Double?
    public var ratingCount: Int?
    /// The required user info as JSON with sorted keys.
    public var userInfo: String?
    /// Seconds since 1970.
    public var expiresAt: Double?

    /// An activity of `bundle` and `activityType`, every other field empty.
    public init(bundle: String, activityType: String) {
        self.bundle = bundle
        self.activityType = activityType
    }
}

/// A donated searchable item (`app_item` row).
public struct DonatedItem: Sendable, Hashable {
    public var bundle: String
    public var uniqueIdentifier: String
    public var domainIdentifier: String?
    /// Seconds since 1970.
    public var expiresAt: Double?

    public init(bundle: String, uniqueIdentifier: String, domainIdentifier: String?, expiresAt: Double?) {
        self.bundle = bundle
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.expiresAt = expiresAt
    }
}

/// Apple's deletion rules (SPEC §4) for one bundle: searchable items by identifier, by `domainIdentifier`
/// (hierarchical: `a` takes `a` and `a.b`, never `ab`), or all of them. Each deleted item takes with it
/// the activities that name it as `relatedUniqueIdentifier`, their content and their donor hashes, so a
/// later donation starts counting donors afresh.
public struct ItemDeletion: Sendable, Hashable {
    /// Which searchable items of the bundle go.
    public enum Scope: Sendable, Hashable {
        case identifiers([String])
        case domains([String])
        /// Every searchable item of the bundle, and every activity of it that names an item.
        case all
    }

    public var bundle: String
    public var scope: Scope

    public init(bundle: String, scope: Scope) {
        self.bundle = bundle
        self.scope = scope
    }
}

/// What a ``DonationStore`` operation changed.
public struct DonationCounts: Sendable, Hashable {
    /// Activity donations from a donor not counted before for that activity.
    public var newDonations = 0
    /// Activities whose content was stored or changed.
    public var storedActivities = 0
    /// Activity records whose activity is still below the engagement threshold.
    public var belowThreshold = 0
    /// Searchable items added or changed.
    public var searchableItems = 0
    /// Deletions applied.
    public var deletions = 0
    /// Searchable items deleted.
    public var deletedItems = 0
    /// Activities deleted with the items they name.
    public var deletedActivities = 0
    /// Withheld records, by reason.
    public var withheld: [String: Int] = [:]

    public init() {}
}

/// The store-wide settings an import reads (SPEC §7).
public struct DonationSettings: Sendable, Hashable {
    /// The store's hashing key, made once when the store was created.
    public var salt: [UInt8]
    /// The engagement threshold recorded in the store; `nil` when none was ever recorded.
    public var engagementThreshold: Int?
    /// The expiry period (days) recorded in the store; `nil` when none was ever recorded.
    public var expiryDays: Double?

    public init(salt: [UInt8], engagementThreshold: Int?, expiryDays: Double?) {
        self.salt = salt
        self.engagementThreshold = engagementThreshold
        self.expiryDays = expiryDays
    }
}
