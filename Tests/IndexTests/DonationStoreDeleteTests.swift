import Donations
import Foundation
import Index
import TestSupport
import Testing

/// The donation store's contract for deletions (Apple's rules, SPEC §4), on both engines with the same
/// expectations: by identifier, by domain (hierarchically), all of a bundle; the activities naming a
/// deleted item go with it, with their donor hashes and their pending web pages.
@Suite("Deleting donated items from the store", .timeLimit(.minutes(4)))
struct DonationStoreDeleteTests {
    static let bundle = "com.example.recipes"

    static func item(_ id: String, _ domain: String) -> String {
        #"{"type":"searchableItem","bundleIdentifier":"\#(bundle)","uniqueIdentifier":"\#(id)","domainIdentifier":"\#(domain)"}"#
    }

    /// Items `i1` (domain `a`), `i2` (`a.b`), `i3` (`ab`), `i4` (`c`), each named by one stored activity
    /// with three donors; the activity of `i4` has a web page, queued for the crawler.
    static func stocked(_ engine: StoreEngine) async throws -> DonationStoreUnderTest {
        let store = try await DonationStoreUnderTest.make(engine)
        var lines = [item("i1", "a"), item("i2", "a.b"), item("i3", "ab"), item("i4", "c")]
        for id in ["i1", "i2", "i3", "i4"] {
            lines += ["x", "y", "z"].map { donor in
                var fields: [String: Any] = [
                    "persistentIdentifier": id, "userInfo": ["id": id], "requiredUserInfoKeys": ["id"],
                    "contentAttributeSet": ["relatedUniqueIdentifier": id, "title": "Item \(id)"],
                ]
                if id == "i4" { fields["webpageURL"] = "https://a.test/i4" }
                return activityLine(donor: donor, fields)
            }
        }
        let summary = try await store.importLines(lines)
        #expect(summary.storedActivities == 4 && summary.searchableItems == 4)
        return store
    }

    static func record(ids: [String]? = nil, domains: [String]? = nil, all: Bool? = nil, bundle: String = bundle)
        -> DeletionRecord
    {
        DeletionRecord(bundleIdentifier: bundle, uniqueIdentifiers: ids, domainIdentifiers: domains, all: all)
    }

    @Test("a domain takes its sub-domains, not a longer name", arguments: StoreEngine.allCases)
    func byDomain(engine: StoreEngine) async throws {
        let store = try await Self.stocked(engine)
        defer { Task { await store.cleanUp() } }
        // A domain with LIKE's wildcards matches nothing but itself.
        #expect(try await store.delete(Self.record(domains: ["_", "%"])).deletedItems == 0)
        let summary = try await store.delete(Self.record(domains: ["a"]))
        #expect(summary.deletions == 1 && summary.deletedItems == 2 && summary.deletedActivities == 2)
        #expect(try await store.texts("SELECT unique_identifier FROM app_item ORDER BY 1") == ["i3", "i4"])
        #expect(try await store.texts("SELECT related_id FROM activity ORDER BY 1") == ["i3", "i4"])
        #expect(try await store.count("SELECT count(*) FROM donation") == 6)
    }

    @Test(
        "an identifier takes its item, its activities, their donor hashes and their pending page",
        arguments: StoreEngine.allCases)
    func byIdentifier(engine: StoreEngine) async throws {
        let store = try await Self.stocked(engine)
        defer { Task { await store.cleanUp() } }
        #expect(try await store.count("SELECT count(*) FROM pending_url") == 1)
        let summary = try await store.delete(Self.record(ids: ["i4", "missing"]))
        #expect(summary.deletedItems == 1 && summary.deletedActivities == 1)
        #expect(try await store.count("SELECT count(*) FROM pending_url") == 0)
        #expect(try await store.count("SELECT count(*) FROM donation") == 9)
        // Donors count afresh: one new donation is below the threshold again.
        let again = try await store.importLines([
            activityLine(
                donor: "x",
                [
                    "persistentIdentifier": "i4", "userInfo": ["id": "i4"], "requiredUserInfoKeys": ["id"],
                    "webpageURL": "https://a.test/i4",
                ])
        ])
        #expect(again.newDonations == 1 && again.belowThreshold == 1)
    }

    @Test(
        "a pending page another activity still points to stays queued; the last one takes it",
        arguments: StoreEngine.allCases)
    func sharedPendingPage(engine: StoreEngine) async throws {
        let store = try await Self.stocked(engine)
        defer { Task { await store.cleanUp() } }
        // Another app's activities: one on i4's page, one on a page of its own.
        var lines: [String] = []
        for (related, page) in [("o1", "https://a.test/i4"), ("o2", "https://a.test/other")] {
            lines += ["x", "y", "z"].map { donor in
                activityLine(
                    donor: donor,
                    [
                        "bundleIdentifier": "com.other", "activityType": "com.other.view",
                        "persistentIdentifier": related, "userInfo": ["id": related],
                        "requiredUserInfoKeys": ["id"], "webpageURL": page,
                        "contentAttributeSet": ["relatedUniqueIdentifier": related, "title": "Other \(related)"],
                    ])
            }
        }
        _ = try await store.importLines(lines)
        let pages = "SELECT url FROM pending_url ORDER BY 1"
        #expect(try await store.texts(pages) == ["https://a.test/i4", "https://a.test/other"])
        let summary = try await store.delete(Self.record(ids: ["i4"]))
        #expect(summary.deletedActivities == 1)
        #expect(try await store.texts(pages) == ["https://a.test/i4", "https://a.test/other"])
        let other = try await store.delete(Self.record(ids: ["o1"], bundle: "com.other"))
        #expect(other.deletedActivities == 1)
        #expect(try await store.texts(pages) == ["https://a.test/other"])
        _ = try await store.delete(Self.record(all: true, bundle: "com.other"))
        #expect(try await store.count("SELECT count(*) FROM pending_url") == 0)
    }

    @Test("all of a bundle, through a delete record in a donation file", arguments: StoreEngine.allCases)
    func all(engine: StoreEngine) async throws {
        let store = try await Self.stocked(engine)
        defer { Task { await store.cleanUp() } }
        let other = #"{"type":"delete","bundleIdentifier":"com.other","all":true}"#
        let none = try await store.importLines([other], name: "d1.jsonl")
        #expect(none.deletions == 1 && none.deletedItems == 0 && none.deletedActivities == 0)
        let everything = #"{"type":"delete","bundleIdentifier":"\#(Self.bundle)","all":true}"#
        let summary = try await store.importLines([everything], name: "d2.jsonl")
        #expect(summary.deletedItems == 4 && summary.deletedActivities == 4)
        for table in ["app_item", "activity", "donation", "pending_url"] {
            #expect(try await store.count("SELECT count(*) FROM \(table)") == 0, "\(table)")
        }
    }
}
