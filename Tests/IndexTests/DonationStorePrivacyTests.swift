import Foundation
import Index
import TestSupport
import Testing

/// SPEC §4 read from outside the product: whatever an import writes, a raw donor id, the content of a
/// withheld record and the content of an activity below the threshold are nowhere in the store's tables —
/// neither as text nor as the bytes of a `bytea`/BLOB (PostgreSQL shows those in hex).
@Suite("What an import leaves in the store's tables", .timeLimit(.minutes(4)))
struct DonationStorePrivacyTests {
    static let donors = ["donor-ABC", "donor-DEF", "donor-GHI", "donor-JKL"]
    static let secrets = [
        "SECRET-TITLE", "SECRET-DESCRIPTION", "secret-path", "SESSION-XYZ", "KEYWORD-Q", "WITHHELD-TITLE",
        "withheld-path",
    ]

    static func line(donor: String) -> String {
        activityLine(
            donor: donor,
            [
                "title": "SECRET-TITLE", "webpageURL": "https://private.test/secret-path",
                "userInfo": ["id": "ID-7", "session": "SESSION-XYZ"], "requiredUserInfoKeys": ["id"],
                "keywords": ["KEYWORD-Q"], "contentAttributeSet": ["contentDescription": "SECRET-DESCRIPTION"],
            ])
    }

    static func withheld(donor: String) -> String {
        activityLine(
            donor: donor,
            [
                "title": "WITHHELD-TITLE", "webpageURL": "https://private.test/withheld-path",
                "isEligibleForPublicIndexing": false,
            ])
    }

    /// `text`'s bytes in lower-case hex, as PostgreSQL prints a `bytea`.
    static func hex(_ text: String) -> String {
        text.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test(
        "no raw donor id and no content of a withheld record or of an activity below the threshold",
        arguments: StoreEngine.allCases)
    func nothingIdentifying(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        let lines = Self.donors.prefix(2).map(Self.line(donor:)) + Self.donors.map(Self.withheld(donor:))
        let summary = try await store.importLines(lines, threshold: 3)
        #expect(summary.newDonations == 2 && summary.belowThreshold == 2)
        #expect(summary.withheld == ["notEligibleForPublicIndexing": 4])
        #expect(try await store.count("SELECT count(*) FROM donation") == 2)
        #expect(try await store.count("SELECT count(*) FROM withheld_record") == 4)
        let stored = try await store.everything()
        #expect(stored.range(of: Data("private.test".utf8)) == nil)
        for secret in Self.donors + Self.secrets {
            #expect(stored.range(of: Data(secret.utf8)) == nil, "\(secret) is stored")
            #expect(stored.range(of: Data(Self.hex(secret).utf8)) == nil, "\(secret) is stored as bytes")
        }
        // Hashes are 16 bytes, keyed: none is a hash anybody could compute without the store's salt.
        #expect(try await store.count("SELECT count(*) FROM donation WHERE length(identity) <> 16") == 0)
        #expect(try await store.count("SELECT count(*) FROM donation WHERE length(donor) <> 16") == 0)
        #expect(try await store.count("SELECT count(*) FROM withheld_record WHERE length(hash) <> 16") == 0)

        // At the threshold the content is stored, the required user info only, and still no donor id.
        _ = try await store.importLines([Self.line(donor: "donor-GHI")])
        let above = try await store.everything()
        #expect(above.range(of: Data("SECRET-TITLE".utf8)) != nil)
        #expect(above.range(of: Data("ID-7".utf8)) != nil)
        for secret in Self.donors + ["SESSION-XYZ", "WITHHELD-TITLE", "withheld-path"] {
            #expect(above.range(of: Data(secret.utf8)) == nil, "\(secret) is stored")
            #expect(above.range(of: Data(Self.hex(secret).utf8)) == nil, "\(secret) is stored as bytes")
        }
    }

    @Test(
        "a publish adds nothing identifying: what is withheld or below the threshold stays hashes",
        arguments: StoreEngine.allCases)
    func nothingIdentifyingAfterPublish(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        let open = PublishTests.infoActivities(
            "p-1", title: "PUBLIC-TITLE", donors: ["donor-X1", "donor-Y1", "donor-Z1"])
        let lines = Self.donors.prefix(2).map(Self.line(donor:)) + Self.donors.map(Self.withheld(donor:)) + open
        _ = try await store.importLines(lines, threshold: 3)
        let summary = try await store.publish()
        #expect(summary.published == 1)
        #expect(summary.withheld == ["notEligibleForPublicIndexing": 4, "belowEngagementThreshold": 1])
        let stored = try await store.everything()
        #expect(stored.range(of: Data("PUBLIC-TITLE".utf8)) != nil)
        #expect(stored.range(of: Data("private.test".utf8)) == nil)
        for secret in Self.donors + Self.secrets + ["donor-X1", "donor-Y1", "donor-Z1"] {
            #expect(stored.range(of: Data(secret.utf8)) == nil, "\(secret) is stored")
            #expect(stored.range(of: Data(Self.hex(secret).utf8)) == nil, "\(secret) is stored as bytes")
        }
        // The report's member list names the published activity, never a donor.
        let members = try await store.texts("SELECT members FROM cluster")
        #expect(members.count == 1 && !members[0].contains("donor"), "\(members)")
    }
}
