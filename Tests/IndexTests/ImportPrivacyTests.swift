import Foundation
import GRDB
import Index
import TestSupport
import Testing

/// SPEC §4: below the engagement threshold the store holds only salted hashes — never titles,
/// descriptions, URLs, userInfo or donor names; of userInfo only the required keys are ever stored.
@Suite struct ImportPrivacyTests {
    static let secrets = ["SECRET-TITLE", "SECRET-DESCRIPTION", "secret-path", "SESSION-XYZ", "donor-ABC", "KEYWORD-Q"]

    static func line(donor: String) -> String {
        activityLine(
            donor: donor,
            [
                "title": "SECRET-TITLE", "webpageURL": "https://private.test/secret-path",
                "userInfo": ["id": "ID-7", "session": "SESSION-XYZ"], "requiredUserInfoKeys": ["id"],
                "keywords": ["KEYWORD-Q"], "contentAttributeSet": ["contentDescription": "SECRET-DESCRIPTION"],
            ])
    }

    @Test func belowTheThresholdOnlyHashesReachTheFile() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let file = try donationFile([Self.line(donor: "donor-ABC"), Self.line(donor: "donor-DEF")], in: store)
        let summary = try await store.importFiles([file])
        #expect(summary.newDonations == 2)
        #expect(summary.belowThreshold == 2)
        #expect(summary.storedActivities == 0)
        let bytes = try store.rawBytes()
        for secret in Self.secrets + ["donor-DEF", "private.test"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the SQLite file")
        }
        #expect(try store.count("SELECT count(*) FROM donation") == 2)
        #expect(try store.count("SELECT count(*) FROM activity") == 0)
        #expect(try store.count("SELECT count(*) FROM pending_url") == 0)
    }

    @Test func atTheThresholdContentIsStoredWithOnlyTheRequiredUserInfo() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines = ["donor-ABC", "donor-DEF", "donor-GHI"].map(Self.line(donor:))
        let summary = try await store.importFiles([try donationFile(lines, in: store)])
        #expect(summary.storedActivities == 1)
        let dump = try store.dump()
        #expect(dump.contains("SECRET-TITLE"))
        #expect(dump.contains("ID-7"))
        #expect(!dump.contains("SESSION-XYZ"))
        #expect(!dump.contains("donor-ABC"))
        #expect(try store.count("SELECT donors FROM activity") == 3)
        // The page was never crawled: the import hands the URL to the crawler at once (at the
        // threshold), and publishing withholds it until it is crawled.
        #expect(try store.count("SELECT count(*) FROM pending_url") == 1)
        let published = try await store.publish()
        #expect(published.published == 0)
        #expect(published.withheld["awaitingCrawl"] == 1)
        #expect(published.pendingURLs == 0)  // already pending
        let pending = try store.readOnly { db in try String.fetchAll(db, sql: "SELECT url_key FROM pending_url") }
        #expect(pending == ["https://private.test/secret-path"])
    }

    @Test func ineligibleRecordsAreCountedNotStored() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        var lines = ["donor-ABC", "donor-DEF", "donor-GHI"].map { donor in
            activityLine(
                donor: donor,
                [
                    "title": "SECRET-TITLE", "webpageURL": "https://private.test/secret-path",
                    "isEligibleForPublicIndexing": false,
                ])
        }
        lines.append(activityLine(donor: "donor-X", ["title": "SECRET-TITLE"]))  // nothing could open it
        let summary = try await store.importFiles([try donationFile(lines, in: store)], threshold: 1)
        #expect(summary.withheld == ["notEligibleForPublicIndexing": 3, "noWebpageURLOrUserInfo": 1])
        let bytes = try store.rawBytes()
        #expect(bytes.range(of: Data("SECRET-TITLE".utf8)) == nil)
        #expect(bytes.range(of: Data("secret-path".utf8)) == nil)
        #expect(try store.count("SELECT count(*) FROM withheld_record") == 4)
        let published = try await store.publish()
        #expect(published.withheld["notEligibleForPublicIndexing"] == 3)
    }

    /// Raising the threshold removes content now below it (it may not be kept).
    @Test func raisingTheThresholdPurgesContent() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines = ["donor-ABC", "donor-DEF"].map(Self.line(donor:))
        _ = try await store.importFiles([try donationFile(lines, in: store)], threshold: 2)
        #expect(try store.count("SELECT count(*) FROM activity") == 1)
        _ = try await store.publish(threshold: 3)
        #expect(try store.count("SELECT count(*) FROM activity") == 0)
        #expect(try store.count("SELECT count(*) FROM donation") == 2)
        #expect(try store.count("SELECT value FROM setting WHERE name = 'engagement_threshold'") == 3)
    }
}
