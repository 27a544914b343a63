import Donations
import FixtureServer
import Foundation
import TestSupport
import Testing

/// What one donation line may cost: lists are refused over their caps before an entry is read, and the
/// costliest line within the limits is read in time proportional to its bytes.
///
/// Time is compared with a twin line measured in the same test (``TwinTiming``): the same bytes with the
/// record's field names changed to unknown ones, so the JSON parse is the same and only the reading
/// differs. The bound is generous (20 times the twin); quadratic work on a 1 MiB line misses it by hundreds.
@Suite("Donation lines cost what their bytes cost")
struct DonationCostTests {
    static let head =
        #"{"type":"userActivity","bundleIdentifier":"com.example","donor":"d","activityType":"t","#
        + #""isEligibleForPublicIndexing":true"#

    static func parse(_ line: String) -> Result<DonationRecord, DonationIssue> {
        DonationParser.parse(Array(line.utf8), file: "c.jsonl", number: 1)
    }

    /// `count` JSON strings `"<prefix>0"`, `"<prefix>1"`, … joined by commas.
    static func strings(_ count: Int, _ prefix: String) -> String {
        (0..<count).map { "\"\(prefix)\($0)\"" }.joined(separator: ",")
    }

    @Test(
        "a list over 1000 entries is refused, naming it",
        arguments: ["userInfo", "requiredUserInfoKeys", "keywords", "contentAttributeSet.keywords"])
    func overCap(field: String) {
        let tail =
            switch field {
            case "userInfo": #","userInfo":{"# + (0...1000).map { "\"k\($0)\":1" }.joined(separator: ",") + "}}"
            case "contentAttributeSet.keywords":
                #","contentAttributeSet":{"keywords":["# + Self.strings(1001, "w") + "]}}"
            default: ",\"\(field)\":[" + Self.strings(1001, "w") + "]}"
            }
        #expect(Self.parse(Self.head + tail).failureReason == "\(field): more than 1000 entries")
    }

    @Test("a deletion of more than 1000 identifiers is refused, and one of 1000 is read")
    func deletionCap() {
        for (count, reason) in [(1001, "uniqueIdentifiers: more than 1000 entries"), (1000, nil)] {
            let line =
                #"{"type":"delete","bundleIdentifier":"b","uniqueIdentifiers":["# + Self.strings(count, "u") + "]}"
            #expect(Self.parse(line).failureReason == reason)
        }
    }

    @Test("an expiration date longer than any a program writes is refused")
    func longDate() {
        let date = "2027-01-01T00:00:00." + String(repeating: "0", count: 100) + "Z"
        #expect(DonationDates.parse(date) == nil)
        #expect(DonationDates.parse("2027-01-01T00:00:00.123456789+05:30") != nil)
    }

    /// The line that took a core for a minute: 1 MiB of `userInfo` and `requiredUserInfoKeys`, tens of
    /// thousands of entries each, none of them required (so each lookup of the old filter scanned them all).
    @Test("a 1 MiB line of two huge lists is refused in the time its twin takes to parse")
    func hugeLists() {
        let pairs = (DonationParser.maxLineBytes - Self.head.utf8.count - 64) / 20
        let info = (0..<pairs).map { "\"k\($0)\":0" }.joined(separator: ",")
        let line =
            Self.head + #","userInfo":{"# + info + #"},"requiredUserInfoKeys":["# + Self.strings(pairs, "r") + "]}"
        #expect(line.utf8.count <= DonationParser.maxLineBytes)
        #expect(Self.parse(line).failureReason == "userInfo: more than 1000 entries")
        Self.expectLinear(line)
    }

    /// Every list at its cap, every `userInfo` key required, and one `userInfo` value nested 500 objects
    /// deep under keys of a thousand characters, holding as many empty arrays as the rest of the megabyte takes: a path written out per
    /// value would copy half a megabyte for each of them.
    @Test("the costliest 1 MiB line within the limits is read in the time its twin takes to parse")
    func costliestLine() throws {
        let keys = (0..<1000).map { "key\($0)" }
        var deep = String(repeating: "{\"\(String(repeating: "k", count: 1000))\":", count: 500)
        let fields =
            Self.head + #","requiredUserInfoKeys":["# + keys.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            + #","keywords":["# + Self.strings(1000, "w") + "]"
            + #","contentAttributeSet":{"keywords":["# + Self.strings(1000, "c") + "]}"
            + #","userInfo":{"# + keys.dropLast().map { "\"\($0)\":[1,{\"b\":2.50,\"a\":null}]" }.joined(separator: ",")
            + ",\"\(keys[999])\":"
        let closing = "]" + String(repeating: "}", count: 500) + "}}"
        let room = DonationParser.maxLineBytes - fields.utf8.count - deep.utf8.count - closing.utf8.count - 1
        deep += "[" + Array(repeating: "[]", count: room / 3).joined(separator: ",")
        let line = fields + deep + closing
        #expect(line.utf8.count <= DonationParser.maxLineBytes)
        guard case .success(.userActivity(let activity)) = Self.parse(line) else {
            Issue.record("refused: \(Self.parse(line).failureReason ?? "")")
            return
        }
        #expect(activity.userInfo?.count == 1000)
        // Read in canonical form: numbers as their Double is written, members sorted.
        #expect(activity.userInfo?[keys[0]]?.serialized() == #"[1,{"a":null,"b":2.5}]"#)
        #expect(activity.keywords?.count == 1000)
        Self.expectLinear(line)
    }

    /// `line` read at most 20 times as long as its twin, whose record fields are renamed to unknown keys of
    /// the same length (`userInfo` becomes `userInfX`): the same JSON to parse, nothing to read.
    static func expectLinear(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var twin = line
        for name in ["userInfo", "requiredUserInfoKeys", "keywords", "contentAttributeSet"] {
            twin = twin.replacingOccurrences(of: "\"\(name)\":", with: "\"\(name.dropLast())X\":")
        }
        let bytes = Array(line.utf8)
        let twinBytes = Array(twin.utf8)
        #expect(bytes.count == twinBytes.count, sourceLocation: sourceLocation)
        let timing = TwinTiming.measure(within: 20) {
            _ = DonationParser.parse(bytes, file: "w", number: 1)
        } twin: {
            _ = DonationParser.parse(twinBytes, file: "t", number: 1)
        }
        #expect(timing.isWithin(20), "\(timing)", sourceLocation: sourceLocation)
    }
}
