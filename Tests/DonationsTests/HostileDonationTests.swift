import Donations
import Foundation
import Testing

@Suite("Hostile donation records: impossible dates, control characters, unreadable files")
struct HostileDonationTests {
    static func parse(_ line: String) -> Result<DonationRecord, DonationIssue> {
        DonationParser.parse(Array(line.utf8), file: "h.jsonl", number: 4)
    }

    @Test(
        "A day its month does not have is refused, in every form Foundation would roll over",
        arguments: [
            "2027-02-30T00:00:00Z", "2027-02-29T00:00:00Z", "2027-04-31T10:00:00+02:00", "2027-02-30T00:00:00.5Z",
            "2027-02-30", "2027-06-31", "2100-02-29", "2027-00-10", "2027-11-00T00:00:00Z",
        ])
    func impossibleDates(text: String) {
        #expect(DonationDates.parse(text) == nil, "\(text)")
        let line =
            #"{"type":"searchableItem","bundleIdentifier":"b","uniqueIdentifier":"u","expirationDate":"\#(text)"}"#
        guard case .failure(let issue) = Self.parse(line) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(issue.reason.contains("expirationDate"), "\(issue.reason)")
    }

    @Test(
        "Dates that exist are still read, leap days included",
        arguments: [
            "2028-02-29T00:00:00Z", "2000-02-29", "2027-04-30T10:00:00+02:00", "2027-12-31T23:59:59.999Z",
        ])
    func possibleDates(text: String) {
        #expect(DonationDates.parse(text) != nil, "\(text)")
    }

    @Test("Control characters are removed from titles, descriptions and keywords")
    func textCleaned() throws {
        let line = """
            {"type":"userActivity","bundleIdentifier":"b","donor":"d","activityType":"t",\
            "title":"Clear\\u001b[2J now","keywords":["bell\\u0007ringer"],\
            "contentAttributeSet":{"title":"Set\\u009btitle","contentDescription":"one\\ntwo\\u001b]0;x\\u0007"}}
            """
        guard case .success(.userActivity(let activity)) = Self.parse(line) else {
            Issue.record("not read")
            return
        }
        #expect(activity.title == "Clear[2J now")
        #expect(activity.keywords == ["bellringer"])
        #expect(activity.contentAttributeSet?.title == "Settitle")
        #expect(activity.contentAttributeSet?.contentDescription == "one two]0;x")
    }

    @Test(
        "An identifier holding a control character is refused, naming the field",
        arguments: [
            (#"{"type":"searchableItem","bundleIdentifier":"b","uniqueIdentifier":"u\u001b[2J"}"#, "uniqueIdentifier"),
            (#"{"type":"searchableItem","bundleIdentifier":"b\u0007","uniqueIdentifier":"u"}"#, "bundleIdentifier"),
            (
                #"{"type":"userActivity","bundleIdentifier":"b","donor":"d","activityType":"t","persistentIdentifier":"p\u009b"}"#,
                "persistentIdentifier"
            ),
            (#"{"type":"delete","bundleIdentifier":"b","domainIdentifiers":["ok","x\u0000"]}"#, "domainIdentifiers"),
        ])
    func controlInIdentifier(line: String, field: String) {
        guard case .failure(let issue) = Self.parse(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(issue.reason == "\(field): contains a control character", "\(issue.reason)")
    }

    @Test("A file that cannot be opened or read says why in the system's words")
    func unreadableFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("donations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, reason) in [
            (folder.appendingPathComponent("missing.jsonl").path, "cannot open: No such file or directory"),
            (folder.path, "cannot read: is a directory"),
        ] {
            #expect {
                try DonationFile.forEachRecord(in: path) { _ in }
            } throws: { error in
                (error as? DonationIssue)?.description == "\(path): \(reason)"
            }
        }
    }
}
