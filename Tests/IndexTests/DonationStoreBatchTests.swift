import Foundation
import Store
import TestSupport
import Testing

/// Records of one batch that meet each other — the same donation twice, an activity reaching the engagement
/// threshold part-way, content changed and changed back, a searchable item repeated, a deletion in the
/// middle — applied through ``DonationStore`` on both engines: PostgreSQL writes a batch with set-based
/// statements, SQLite record by record, and both must end with the same rows and the same counts.
@Suite("Records of one batch that meet each other", .timeLimit(.minutes(4)))
struct DonationStoreBatchTests {
    @Test("both engines end with the same rows and counts", arguments: BatchCase.all)
    func sameOnBothEngines(_ batchCase: BatchCase) async throws {
        var results: [StoreEngine: (counts: [DonationCounts], tables: [String: [String]])] = [:]
        for engine in StoreEngine.allCases {
            let store = try await DonationStoreUnderTest.make(engine)
            defer { Task { await store.cleanUp() } }
            for sql in batchCase.setUp { try await store.execute(sql) }
            var counts: [DonationCounts] = []
            for (index, batch) in batchCase.batches.enumerated() {
                counts.append(
                    try await store.store.applyDonations(
                        batch, threshold: batchCase.threshold, now: 1_700_000_000.25 + Double(index)))
            }
            results[engine] = (counts, try await store.donationTables())
        }
        let sqlite = try #require(results[.sqlite]), postgres = try #require(results[.postgres])
        #expect(postgres.counts == sqlite.counts)
        for table in sqlite.tables.keys.sorted() {
            #expect(postgres.tables[table] == sqlite.tables[table], "\(table)")
        }
        if let expected = batchCase.expected {
            #expect(BatchCase.Totals(sqlite.counts) == expected)
        }
    }
}

/// One case: batches applied in order at one engagement threshold, after `setUp` (SQL for both engines).
struct BatchCase: Sendable, CustomTestStringConvertible {
    /// The counts summed over the batches that a case states (SQLite, the reference, must agree).
    struct Totals: Hashable, Sendable {
        var newDonations = 0, belowThreshold = 0, storedActivities = 0, searchableItems = 0, withheld = 0

        init(new: Int = 0, below: Int = 0, stored: Int = 0, items: Int = 0, withheld: Int = 0) {
            (newDonations, belowThreshold, storedActivities, searchableItems) = (new, below, stored, items)
            self.withheld = withheld
        }

        init(_ counts: [DonationCounts]) {
            for count in counts {
                newDonations += count.newDonations
                belowThreshold += count.belowThreshold
                storedActivities += count.storedActivities
                searchableItems += count.searchableItems
                withheld += count.withheld.values.reduce(0, +)
            }
        }
    }

    var name: String
    var threshold = 1
    var setUp: [String] = []
    var batches: [[DonationWrite]]
    var expected: Totals?

    var testDescription: String { name }

    static let bundle = "com.example.batch"

    /// Donor `donor`'s donation of activity `id`; its web page, when given, is its own URL key.
    static func activity(
        _ id: String, donor: String, title: String = "Title", page: String? = nil, related: String? = nil,
        rating: Double? = nil
    ) -> DonationWrite {
        var content = DonatedActivity(bundle: bundle, activityType: "\(bundle).view")
        content.persistentIdentifier = id
        content.title = title
        content.webpageURL = page
        content.urlKey = page
        content.relatedID = related
        content.rating = rating
        content.userInfo = #"{"id":"\#(id)"}"#
        return .activity(identity: Data("identity-\(id)".utf8), donor: Data("donor-\(donor)".utf8), content: content)
    }

    static func item(_ id: String, domain: String? = nil, expires: Double? = nil) -> DonationWrite {
        .searchableItem(DonatedItem(bundle: bundle, uniqueIdentifier: id, domainIdentifier: domain, expiresAt: expires))
    }

    static func withheld(_ hash: String, reason: String) -> DonationWrite {
        .withheld(hash: Data("hash-\(hash)".utf8), bundle: bundle, reason: reason)
    }

    static func deleting(_ ids: [String]) -> DonationWrite {
        .delete(ItemDeletion(bundle: bundle, scope: .identifiers(ids)))
    }
}
