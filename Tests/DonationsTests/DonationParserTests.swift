import Donations
import Foundation
import Testing

@Suite("Donation records")
struct DonationParserTests {
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/donations")
    }

    static func parse(_ line: String) -> Result<DonationRecord, DonationIssue> {
        DonationParser.parse(Array(line.utf8), file: "t.jsonl", number: 7)
    }

    @Test("the SPEC §6 examples read as their types; userInfo keeps only the required keys")
    func specExamples() throws {
        var records: [DonationRecord] = []
        try DonationFile.forEachRecord(in: Self.fixtures.appendingPathComponent("spec-examples.jsonl").path) {
            records.append(try $0.get())
        }
        try #require(records.count == 5)
        guard case .userActivity(let activity) = records[0] else {
            Issue.record("first record is not an activity")
            return
        }
        #expect(activity.userInfo == ["id": .string("42")])
        #expect(activity.contentAttributeSet?.relatedUniqueIdentifier == "recipe-42")
        #expect(activity.isEligibleForPublicIndexing == true)
        guard case .searchableItem(let item) = records[1], case .delete(let byID) = records[2],
            case .delete(let byDomain) = records[3], case .delete(let all) = records[4]
        else {
            Issue.record("record types")
            return
        }
        #expect(item.uniqueIdentifier == "recipe-42" && item.attributeSet?.keywords == ["tart"])
        #expect(byID.uniqueIdentifiers == ["recipe-42"] && byDomain.domainIdentifiers == ["recipes"])
        #expect(all.all == true && records.allSatisfy { $0.bundleIdentifier == "com.example.recipes" })
    }

    @Test(
        "bad lines are refused with a located reason",
        arguments: [
            ("not json", "not valid JSON"),
            (#"{"bundleIdentifier":"a"}"#, "missing required field 'type'"),
            (#"{"type":"song","bundleIdentifier":"a"}"#, "unknown type 'song'"),
            (#"{"type":"userActivity","bundleIdentifier":"a","activityType":"v"}"#, "missing required field 'donor'"),
            (
                #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","title":7}"#,
                "title: expected a string"
            ),
            (
                #"{"type":"userActivity","bundleIdentifier":" ","donor":"d","activityType":"v"}"#,
                "bundleIdentifier: must not be empty"
            ),
            (
                #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","webpageURL":"ftp://x/"}"#,
                "webpageURL: not an absolute http or https URL"
            ),
            (
                #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","webpageURL":"/relative"}"#,
                "webpageURL: not an absolute http or https URL"
            ),
            (
                #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","expirationDate":"next week"}"#,
                "expirationDate: not an ISO 8601 date"
            ),
            (
                #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"keywords":[1]}}"#,
                "attributeSet.keywords[0]: expected a string"
            ),
            (
                #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"rating":-1}}"#,
                "attributeSet.rating: must be a finite number"
            ),
            (#"{"type":"delete","bundleIdentifier":"a"}"#, "exactly one of"),
            (#"{"type":"delete","bundleIdentifier":"a","all":true,"uniqueIdentifiers":["x"]}"#, "exactly one of"),
            (
                #"{"type":"delete","bundleIdentifier":"a","uniqueIdentifiers":[]}"#,
                "uniqueIdentifiers: must not be empty"
            ),
            (#"{"type":"delete","bundleIdentifier":"a","all":false}"#, "all: must be true"),
        ])
    func badLines(line: String, reason: String) {
        switch Self.parse(line) {
        case .success(let record):
            Issue.record("accepted: \(record)")
        case .failure(let issue):
            #expect(issue.description.hasPrefix("t.jsonl:7: "))
            #expect(issue.reason.contains(reason), "\(issue.reason)")
        }
    }

    @Test(
        "a refused line still names its bundle when it is an object with a string bundleIdentifier",
        arguments: [
            (#"{"bundleIdentifier":"com.other"}"#, "com.other"),
            (#"{"type":"userActivity","bundleIdentifier":"com.other","donor":"d"}"#, "com.other"),
            (#"{"type":"song","bundleIdentifier":"com.other"}"#, "com.other"),
            (#"{"type":"userActivity","bundleIdentifier":7}"#, nil),
            (#"["bundleIdentifier","com.other"]"#, nil),
            ("not json", nil),
        ] as [(String, String?)])
    func refusedLineNamesItsBundle(line: String, bundle: String?) throws {
        guard case .failure(let issue) = Self.parse(line) else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(issue.bundleIdentifier == bundle)
    }

    @Test("dates: ISO 8601 with or without fractional seconds and offsets, or a date alone")
    func dates() {
        for text in ["2027-01-01T00:00:00Z", "2027-01-01T00:00:00.250Z", "2027-01-01T01:00:00+01:00", "2027-01-01"] {
            #expect(DonationDates.parse(text) != nil, "\(text)")
        }
        for text in ["2027-13-01T00:00:00Z", "01/01/2027", "", "2027-01-01T25:00:00Z"] {
            #expect(DonationDates.parse(text) == nil, "\(text)")
        }
    }

    @Test("a file: blank lines skipped, bad and over-long lines reported with their numbers, the rest read")
    func file() throws {
        let long =
            #"{"type":"delete","bundleIdentifier":""# + String(repeating: "x", count: DonationParser.maxLineBytes)
            + #"","all":true}"#
        let text = [
            "\u{FEFF}" + #"{"type":"delete","bundleIdentifier":"a","all":true}"#, "", "{broken", long,
            #"{"type":"delete","bundleIdentifier":"b","all":true}"# + "\r",
        ].joined(separator: "\n")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("donations-\(UUID()).jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var read: [String] = []
        var issues: [DonationIssue] = []
        try DonationFile.forEachRecord(in: path) { result in
            switch result {
            case .success(let record): read.append(record.bundleIdentifier)
            case .failure(let issue): issues.append(issue)
            }
        }
        #expect(read == ["a", "b"])
        #expect(issues.map(\.line) == [3, 4])
        #expect(issues.last?.reason.contains("longer than") == true)
        #expect(throws: DonationIssue.self) { try DonationFile.forEachRecord(in: "/no/such/file") { _ in } }
    }
}
