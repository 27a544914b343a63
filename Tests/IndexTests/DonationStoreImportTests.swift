import Foundation
import Index
import TestSupport
import Testing

/// The donation store's contract for `import`, on both engines with the same expectations: counts,
/// idempotence, the engagement threshold, withheld records, the required user info, bad lines.
@Suite("Importing donations into the store", .timeLimit(.minutes(4)))
struct DonationStoreImportTests {
    static let item = #"{"type":"searchableItem","bundleIdentifier":"com.example.recipes","uniqueIdentifier":"r-1"}"#

    static func tart(donor: String) -> String {
        activityLine(donor: donor, ["title": "Tart", "webpageURL": "https://a.test/tart?utm_source=x"])
    }

    @Test(
        "records are counted, and importing the same file again changes nothing",
        arguments: StoreEngine.allCases)
    func importTwice(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        let lines = ["a", "b", "c"].map(Self.tart(donor:)) + [Self.item]
        let first = try await store.importLines(lines)
        #expect(first.records == 4 && first.rejected == 0)
        #expect(first.newDonations == 3)
        #expect(first.belowThreshold == 2)
        #expect(first.storedActivities == 1)
        #expect(first.searchableItems == 1)
        #expect(first.engagementThreshold == 3)
        #expect(try await store.texts("SELECT url_key FROM pending_url") == ["https://a.test/tart"])
        let before = try await store.everything()

        let again = try await store.importLines(lines, now: Date().addingTimeInterval(60))
        #expect(again.records == 4)
        #expect(again.newDonations == 0 && again.storedActivities == 0 && again.searchableItems == 0)
        #expect(try await store.everything() == before)
        #expect(try await store.count("SELECT count(*) FROM donation") == 3)
        #expect(try await store.count("SELECT donors FROM activity") == 3)
        #expect(try await store.count("SELECT version FROM activity") == 1)
    }

    @Test(
        "below the engagement threshold only hashes are stored; reaching it stores the content; raising it purges",
        arguments: StoreEngine.allCases)
    func engagementThreshold(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        let lines = ["a", "b"].map(Self.tart(donor:))
        let below = try await store.importLines(lines)
        #expect(below.newDonations == 2 && below.belowThreshold == 2 && below.storedActivities == 0)
        #expect(try await store.count("SELECT count(*) FROM donation") == 2)
        #expect(try await store.count("SELECT count(*) FROM activity") == 0)
        #expect(try await store.count("SELECT count(*) FROM pending_url") == 0)

        let lowered = try await store.importLines(lines, threshold: 2)
        #expect(lowered.engagementThreshold == 2)
        #expect(lowered.newDonations == 0 && lowered.storedActivities == 1)
        #expect(try await store.texts("SELECT title FROM activity") == ["Tart"])
        #expect(try await store.texts("SELECT value FROM setting WHERE name = 'engagement_threshold'") == ["2"])

        let raised = try await store.importLines([], threshold: 3)
        #expect(raised.engagementThreshold == 3)
        #expect(try await store.count("SELECT count(*) FROM activity") == 0)
        #expect(try await store.count("SELECT count(*) FROM donation") == 2)
        // The setting stays: a later import without the option keeps the raised threshold.
        #expect(try await store.importLines([Self.tart(donor: "c")]).engagementThreshold == 3)
        #expect(try await store.count("SELECT donors FROM activity") == 3)
    }

    @Test("withheld records are counted once by hash and never stored", arguments: StoreEngine.allCases)
    func withheld(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        let lines = [
            activityLine(
                donor: "a",
                ["title": "WITHHELD-1", "webpageURL": "https://a.test/w1", "isEligibleForPublicIndexing": false]),
            activityLine(donor: "a", ["title": "WITHHELD-2"]),  // nothing could open it
            activityLine(
                donor: "a",
                ["title": "WITHHELD-3", "webpageURL": "https://a.test/w3", "expirationDate": "2001-01-01T00:00:00Z"]),
        ]
        let summary = try await store.importLines(lines, threshold: 1)
        #expect(summary.withheld == ["notEligibleForPublicIndexing": 1, "noWebpageURLOrUserInfo": 1, "expired": 1])
        #expect(summary.newDonations == 0 && summary.storedActivities == 0)
        #expect(try await store.count("SELECT count(*) FROM withheld_record") == 3)
        #expect(try await store.count("SELECT count(*) FROM activity") == 0)
        #expect(try await store.count("SELECT count(*) FROM donation") == 0)
        let again = try await store.importLines(lines, threshold: 1)
        #expect(again.withheld.values.reduce(0, +) == 3)
        #expect(try await store.count("SELECT count(*) FROM withheld_record") == 3)
        let everything = try await store.everything()
        for secret in ["WITHHELD-1", "WITHHELD-2", "WITHHELD-3", "a.test/w"] {
            #expect(everything.range(of: Data(secret.utf8)) == nil, "\(secret) is stored")
        }
    }

    @Test("of userInfo only the required keys are stored", arguments: StoreEngine.allCases)
    func requiredUserInfo(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        let line = activityLine(
            donor: "a",
            [
                "persistentIdentifier": "p-1", "title": "Soup", "userInfo": ["id": "ID-7", "session": "SESSION-XYZ"],
                "requiredUserInfoKeys": ["id"], "keywords": ["hot", "red"],
                "contentAttributeSet": ["relatedUniqueIdentifier": "r-1", "rating": 4.5, "ratingCount": 12],
            ])
        let summary = try await store.importLines([line], threshold: 1)
        #expect(summary.storedActivities == 1)
        #expect(try await store.texts("SELECT user_info FROM activity") == [#"{"id":"ID-7"}"#])
        #expect(try await store.texts("SELECT keywords FROM activity") == ["hot\nred"])
        #expect(try await store.texts("SELECT related_id FROM activity") == ["r-1"])
        #expect(try await store.texts("SELECT rating FROM activity") == ["4.5"])
        #expect(try await store.count("SELECT rating_count FROM activity") == 12)
        #expect(try await store.texts("SELECT webpage_url FROM activity") == ["NULL"])
        #expect(try await store.count("SELECT count(*) FROM pending_url") == 0)
        #expect(try await store.everything().range(of: Data("SESSION-XYZ".utf8)) == nil)
    }

    @Test("bad lines are listed as file:line: reason and the rest is imported", arguments: StoreEngine.allCases)
    func badLines(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        let lines = [
            Self.tart(donor: "a"),
            #"{"type":"searchableItem","bundleIdentifier":"com.example.recipes"}"#,
            "{not json",
            Self.item,
        ]
        let path = try donationFile(lines, in: store.files)
        let strict = try await store.importFiles([path], threshold: 1, strict: true)
        #expect(strict.rejected == 2)
        #expect(try await store.count("SELECT count(*) FROM donation") == 0)
        #expect(try await store.count("SELECT count(*) FROM app_item") == 0)

        let summary = try await store.importFiles([path], threshold: 1)
        #expect(summary.records == 2 && summary.rejected == 2)
        #expect(summary.issues.count == 2)
        #expect(summary.issues.first?.hasPrefix("\(path):2: ") == true)
        #expect(summary.issues.last?.hasPrefix("\(path):3: ") == true)
        #expect(try await store.count("SELECT count(*) FROM activity") == 1)
        #expect(try await store.count("SELECT count(*) FROM app_item") == 1)
    }
}

extension DonationStoreImportTests {
    @Test(
        "imports running at once count every donor: the activity is stored when the last donor arrives",
        arguments: StoreEngine.allCases)
    func concurrentImports(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        // Each import gives 40 activities one donor each, in one transaction: long enough that the
        // transactions overlap.
        let donors = (1...6).map { "donor-\($0)" }
        let pages = 40
        _ = try await store.importLines([], threshold: donors.count)
        let paths = try donors.map { donor in
            let lines = (1...pages).map {
                activityLine(donor: donor, ["title": "Page \($0)", "webpageURL": "https://a.test/\($0)"])
            }
            return try donationFile(lines, in: store.files, name: "\(donor).jsonl")
        }
        let summaries = try await withThrowingTaskGroup(of: ImportSummary.self) { group in
            for path in paths { group.addTask { try await store.importFiles([path]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(summaries.map(\.newDonations).reduce(0, +) == donors.count * pages)
        #expect(summaries.map(\.storedActivities).reduce(0, +) == pages)
        #expect(try await store.count("SELECT count(*) FROM activity WHERE donors = \(donors.count)") == pages)
    }
}
