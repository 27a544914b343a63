import Foundation

/// The records of a batch that stand between two deletions, gathered so that PostgreSQL writes each kind
/// with a few set-based statements: within a run, records of different activities or different searchable
/// items touch different rows, so only the order of the records of one activity or one item matters, and
/// ``ItemUpsert`` and ``ActivityPlan`` keep it.
struct DonationRun: Sendable {
    /// One donor's donation of an activity.
    struct Donation: Sendable {
        var identity: Data
        var donor: Data
        var content: DonatedActivity
    }

    var donations: [Donation] = []
    var items: [DonatedItem] = []

    var isEmpty: Bool { donations.isEmpty && items.isEmpty }
}

/// The records of one searchable item in a run, folded into one upsert with what applying them one by one
/// does: the first changes the row when the stored row is missing or differs, each later one when it
/// differs from the record before it, and the row ends as the last has it.
struct ItemUpsert: Sendable {
    var first: DonatedItem
    var last: DonatedItem
    /// How many records after the first differ from the record before them.
    var laterChanges = 0

    /// One upsert per item (bundle and identifier) of `items`, in the order of their first records.
    static func fold(_ items: [DonatedItem]) -> [ItemUpsert] {
        var upserts: [ItemUpsert] = []
        var index: [ItemKey: Int] = [:]
        for item in items {
            let key = ItemKey(bundle: item.bundle, identifier: item.uniqueIdentifier)
            guard let at = index[key] else {
                index[key] = upserts.count
                upserts.append(ItemUpsert(first: item, last: item))
                continue
            }
            let previous = upserts[at].last
            if previous.domainIdentifier != item.domainIdentifier || previous.expiresAt != item.expiresAt {
                upserts[at].laterChanges += 1
            }
            upserts[at].last = item
        }
        return upserts
    }

    private struct ItemKey: Hashable {
        var bundle: String
        var identifier: String
    }
}

/// The activity donations of a run, worked out as applying them one by one would (see ``SQLiteStore``): once
/// the store has said which donor pairs are new and how many donors each activity had before the run, the
/// donors each record counts follow, hence the records below the threshold and, for each activity, the
/// content each record above it offers.
struct ActivityPlan: Sendable {
    /// The distinct (identity, donor) pairs, each as its first record: the rows offered to `donation`.
    let pairs: [DonationRun.Donation]
    private let donations: [DonationRun.Donation]
    private let pairIndex: [PairKey: Int]

    init(_ donations: [DonationRun.Donation]) {
        var pairs: [DonationRun.Donation] = []
        var pairIndex: [PairKey: Int] = [:]
        for donation in donations {
            let key = PairKey(identity: donation.identity, donor: donation.donor)
            guard pairIndex[key] == nil else { continue }
            pairIndex[key] = pairs.count
            pairs.append(donation)
        }
        self.pairs = pairs
        self.donations = donations
        self.pairIndex = pairIndex
    }

    /// What the records come to, given whether each of ``pairs`` was added to `donation` (`added`, in the
    /// same order) and each identity's donors before the run (`priorDonors`; absent: none).
    func outcome(added: [Bool], priorDonors: [Data: Int], threshold: Int) -> ActivityOutcome {
        var outcome = ActivityOutcome()
        var donors = priorDonors
        var counted: Set<PairKey> = []
        var upsertIndex: [Data: Int] = [:]
        for donation in donations {
            let key = PairKey(identity: donation.identity, donor: donation.donor)
            // The record that added the pair is its first: a repeat of it finds the row there.
            if let at = pairIndex[key], at < added.count, added[at], counted.insert(key).inserted {
                donors[donation.identity, default: 0] += 1
                outcome.newDonations += 1
            }
            let count = donors[donation.identity] ?? 0
            guard count >= threshold else {
                outcome.belowThreshold += 1
                continue
            }
            guard let at = upsertIndex[donation.identity] else {
                upsertIndex[donation.identity] = outcome.upserts.count
                outcome.upserts.append(
                    ActivityUpsert(
                        identity: donation.identity, first: donation.content, firstDonors: count,
                        last: donation.content, lastDonors: count))
                continue
            }
            let upsert = outcome.upserts[at]
            if upsert.lastDonors != count || !upsert.last.storesSameRow(as: donation.content) {
                outcome.upserts[at].laterChanges += 1
                outcome.laterChanges += 1
                if let urlKey = donation.content.urlKey { outcome.laterPages.append(urlKey) }
            }
            outcome.upserts[at].last = donation.content
            outcome.upserts[at].lastDonors = count
        }
        return outcome
    }

    private struct PairKey: Hashable {
        var identity: Data
        var donor: Data
    }
}

/// What a run's activity donations come to (see ``ActivityPlan``).
struct ActivityOutcome: Sendable {
    var newDonations = 0
    var belowThreshold = 0
    /// One per activity that reached the threshold in the run, in the order it reached it.
    var upserts: [ActivityUpsert] = []
    /// Changes made by records after each activity's first above the threshold.
    var laterChanges = 0
    /// The web pages (canonical keys) of those records, queued for the crawler as each change queues its own.
    var laterPages: [String] = []
}

/// The records of one activity at or above the threshold in a run, folded into one upsert: the first
/// inserts the row (with its bundle and URL key, which an update never changes) or changes it when it
/// differs; each later record changes it when it differs from the one before; the row ends as the last
/// has it.
struct ActivityUpsert: Sendable {
    var identity: Data
    var first: DonatedActivity
    var firstDonors: Int
    var last: DonatedActivity
    var lastDonors: Int
    /// How many records after the first differ from the record before them.
    var laterChanges = 0
}

extension DonatedActivity {
    /// Whether storing `other` leaves a row holding `self` as it is: the columns an update compares, which
    /// are all but the bundle and the URL key (both set when the row is inserted, and part of its identity).
    func storesSameRow(as other: DonatedActivity) -> Bool {
        activityType == other.activityType && webpageURL == other.webpageURL
            && persistentIdentifier == other.persistentIdentifier && relatedID == other.relatedID
            && weakRelatedID == other.weakRelatedID && domainIdentifier == other.domainIdentifier
            && title == other.title && description == other.description && keywords == other.keywords
            && thumbnailURL == other.thumbnailURL && rating == other.rating && ratingCount == other.ratingCount
            && userInfo == other.userInfo && expiresAt == other.expiresAt
    }
}
