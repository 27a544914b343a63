import Foundation

/// One donated record as a ``DonationStore`` writes it: what is identifying is already a keyed hash.
package enum DonationWrite: Sendable, Hashable {
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
package struct DonatedActivity: Sendable, Hashable {
    package var bundle: String
    package var activityType: String
    package var webpageURL: String?
    /// The canonical key of ``webpageURL``: the page the crawler is asked to fetch.
    package var urlKey: String?
    package var persistentIdentifier: String?
    package var relatedID: String?
    package var weakRelatedID: String?
    package var domainIdentifier: String?
    package var title: String?
    package var description: String?
    /// Newline-separated keywords.
    package var keywords: String?
    package var thumbnailURL: String?
    package var rating: Double?
    package var ratingCount: Int?
    /// The required user info as JSON with sorted keys.
    package var userInfo: String?
    /// Seconds since 1970.
    package var expiresAt: Double?

    /// An activity of `bundle` and `activityType`, every other field empty.
    package init(bundle: String, activityType: String) {
        self.bundle = bundle
        self.activityType = activityType
    }
}

/// A donated searchable item (`app_item` row).
package struct DonatedItem: Sendable, Hashable {
    package var bundle: String
    package var uniqueIdentifier: String
    package var domainIdentifier: String?
    /// Seconds since 1970.
    package var expiresAt: Double?

    package init(bundle: String, uniqueIdentifier: String, domainIdentifier: String?, expiresAt: Double?) {
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
package struct ItemDeletion: Sendable, Hashable {
    /// Which searchable items of the bundle go.
    package enum Scope: Sendable, Hashable {
        case identifiers([String])
        case domains([String])
        /// Every searchable item of the bundle, and every activity of it that names an item.
        case all
    }

    package var bundle: String
    package var scope: Scope

    package init(bundle: String, scope: Scope) {
        self.bundle = bundle
        self.scope = scope
    }
}

/// What a ``DonationStore`` operation changed.
package struct DonationCounts: Sendable, Hashable {
    /// Activity donations from a donor not counted before for that activity.
    package var newDonations = 0
    /// Activities whose content was stored or changed.
    package var storedActivities = 0
    /// Activity records whose activity is still below the engagement threshold.
    package var belowThreshold = 0
    /// Searchable items added or changed.
    package var searchableItems = 0
    /// Deletions applied.
    package var deletions = 0
    /// Searchable items deleted.
    package var deletedItems = 0
    /// Activities deleted with the items they name.
    package var deletedActivities = 0
    /// Withheld records, by reason.
    package var withheld: [String: Int] = [:]

    package init() {}
}

/// The store-wide settings an import reads (SPEC §7).
package struct DonationSettings: Sendable, Hashable {
    /// The store's hashing key, made once when the store was created.
    package var salt: [UInt8]
    /// The engagement threshold recorded in the store; `nil` when none was ever recorded.
    package var engagementThreshold: Int?
    /// The expiry period (days) recorded in the store; `nil` when none was ever recorded.
    package var expiryDays: Double?

    package init(salt: [UInt8], engagementThreshold: Int?, expiryDays: Double?) {
        self.salt = salt
        self.engagementThreshold = engagementThreshold
        self.expiryDays = expiryDays
    }
}
