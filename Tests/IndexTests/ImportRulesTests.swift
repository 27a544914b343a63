import Foundation
import GRDB
import Index
import TestSupport
import Testing

@Suite struct ImportRulesTests {
    @Test func importingTwiceChangesNothing() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines =
            ["a", "b", "c"].map {
                activityLine(donor: $0, ["title": "Tart", "webpageURL": "https://a.test/tart?utm_source=x"])
            }
            + [#"{"type":"searchableItem","bundleIdentifier":"com.example.recipes","uniqueIdentifier":"r-1"}"#]
        let file = try donationFile(lines, in: store)
        _ = try await store.importFiles([file])
        let before = try store.dump()
        let again = try await store.importFiles([file])
        #expect(try store.dump() == before)
        #expect(again.newDonations == 0)
        #expect(again.storedActivities == 0)
        #expect(again.searchableItems == 0)
    }

    @Test func strictImportsNothingWhenALineIsBad() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines = [
            activityLine(donor: "a", ["title": "Tart", "webpageURL": "https://a.test/tart"]),
            #"{"type":"searchableItem","bundleIdentifier":"com.example.recipes"}"#,
        ]
        let file = try donationFile(lines, in: store)
        let summary = try await store.importFiles([file], threshold: 1, strict: true)
        #expect(summary.rejected == 1)
        #expect(summary.issues.first?.hasPrefix("\(file):2: ") == true)
        #expect(try store.count("SELECT count(*) FROM donation") == 0)
        #expect(try store.count("SELECT count(*) FROM activity") == 0)
        let lenient = try await store.importFiles([file], threshold: 1)
        #expect(lenient.rejected == 1)
        #expect(try store.count("SELECT count(*) FROM activity") == 1)
    }

    /// The same canonical URL from three donors is one activity with three donors.
    @Test func donorsAreCountedPerCanonicalURL() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let urls = [
            "https://A.test/tart?b=2&a=1", "https://a.test:443/tart?a=1&b=2#x",
            "https://a.test/tart?utm_campaign=z&a=1&b=2",
        ]
        let lines =
            zip(["a", "b", "c"], urls).map { activityLine(donor: $0, ["title": "Tart", "webpageURL": $1]) }
            + [activityLine(donor: "a", ["title": "Tart", "webpageURL": urls[0]])]  // the same donor again
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        #expect(try store.count("SELECT count(*) FROM activity") == 1)
        #expect(try store.count("SELECT donors FROM activity") == 3)
    }

    /// Apple's rules: by identifier; by domain, hierarchically (`a` takes `a.b`, not `ab`); all. The
    /// activities naming a deleted item go with it, with their donor hashes.
    @Test func deletionRules() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        func item(_ id: String, _ domain: String) -> String {
            #"{"type":"searchableItem","bundleIdentifier":"com.example.recipes","uniqueIdentifier":"\#(id)","domainIdentifier":"\#(domain)"}"#
        }
        var lines = [item("i1", "a"), item("i2", "a.b"), item("i3", "ab"), item("i4", "c")]
        for id in ["i1", "i2", "i3", "i4"] {
            lines += ["x", "y", "z"].map { donor in
                activityLine(
                    donor: donor,
                    [
                        "persistentIdentifier": id, "userInfo": ["id": id], "requiredUserInfoKeys": ["id"],
                        "contentAttributeSet": ["relatedUniqueIdentifier": id, "title": "Item \(id)"],
                    ])
            }
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        #expect(try store.count("SELECT count(*) FROM activity") == 4)
        let deleteDomain = #"{"type":"delete","bundleIdentifier":"com.example.recipes","domainIdentifiers":["a"]}"#
        let summary = try await store.importFiles([try donationFile([deleteDomain], in: store, name: "d1.jsonl")])
        #expect(summary.deletedItems == 2)
        #expect(summary.deletedActivities == 2)
        #expect(
            try store.readOnly { db in try String.fetchAll(db, sql: "SELECT unique_identifier FROM app_item ORDER BY 1")
            }
                == ["i3", "i4"])
        #expect(try store.count("SELECT count(*) FROM donation") == 6)
        let deleteID = #"{"type":"delete","bundleIdentifier":"com.example.recipes","uniqueIdentifiers":["i3"]}"#
        _ = try await store.importFiles([try donationFile([deleteID], in: store, name: "d2.jsonl")])
        #expect(try store.count("SELECT count(*) FROM activity") == 1)
        let otherBundle = #"{"type":"delete","bundleIdentifier":"com.other","all":true}"#
        let deleteAll = #"{"type":"delete","bundleIdentifier":"com.example.recipes","all":true}"#
        _ = try await store.importFiles([try donationFile([otherBundle], in: store, name: "d3.jsonl")])
        #expect(try store.count("SELECT count(*) FROM app_item") == 1)
        _ = try await store.importFiles([try donationFile([deleteAll], in: store, name: "d4.jsonl")])
        #expect(try store.count("SELECT count(*) FROM app_item") == 0)
        #expect(try store.count("SELECT count(*) FROM activity") == 0)
        #expect(try store.count("SELECT count(*) FROM donation") == 0)
    }
}
