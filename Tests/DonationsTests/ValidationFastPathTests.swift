import Foundation
import Testing

@testable import Donations

@Suite("Validation fast paths agree with the full checks")
struct ValidationFastPathTests {
    @Test("the plain UTC date shape is accepted only where Foundation's parser reads the date")
    func plainDates() {
        var dates = ["2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T23:59:59Z"]
        for month in 0...13 {
            for day in [0, 1, 28, 29, 30, 31, 32] {
                for (hour, minute, second) in [(0, 0, 0), (23, 59, 59), (24, 0, 0), (12, 60, 0), (12, 0, 60)] {
                    dates.append(String(format: "2027-%02d-%02dT%02d:%02d:%02dZ", month, day, hour, minute, second))
                }
            }
        }
        dates += ["1969-12-31T23:59:59Z", "9999-12-31T23:59:59Z", "2027-01-01T00:00:00+01:00", "2027-1-01T00:00:00Z"]
        // Every year's first of March and last of February, and a spread of days across the range.
        for year in stride(from: 1970, through: 9999, by: 7) {
            dates.append(String(format: "%04d-03-01T00:00:00Z", year))
            dates.append(String(format: "%04d-02-%02dT13:14:15Z", year, year % 4 == 0 ? 29 : 28))
            dates.append(
                String(
                    format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, year % 12 + 1, year % 28 + 1, year % 24,
                    year % 60, (year * 7) % 60))
        }
        var fast = 0
        for text in dates where DonationDates.isPlainUTC(text) {
            fast += 1
            // The fast path's instant is Foundation's, to the second.
            let foundation = try? Date(text, strategy: .iso8601)
            #expect(foundation != nil, "\(text)")
            #expect(DonationDates.parse(text) == foundation, "\(text)")
        }
        #expect(fast > 3_000 && fast < dates.count)
        #expect(!DonationDates.isPlainUTC("2023-02-29T00:00:00Z") && !DonationDates.isPlainUTC("2027-04-31T00:00:00Z"))
    }

    @Test(
        "required fields and lengths read as before around the fast paths",
        arguments: [
            ("a", true), (" ", false), ("\t", false), ("\u{00A0}", false), ("\u{3000} ", false), (" a", true),
            ("\u{00A0}a", true), ("é", true), ("\u{2028}", true),
        ])
    func required(value: String, accepted: Bool) {
        let line =
            #"{"type":"delete","bundleIdentifier":"\#(value.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined())","all":true}"#
        let (old, new) = DifferentialTests.both(line)
        #expect(old == new)
        #expect((new.failureReason == nil) == accepted, "\(line)")
    }

    @Test("the length limit counts characters, not bytes")
    func lengths() {
        for (text, accepted) in [
            (String(repeating: "é", count: 1024), true), (String(repeating: "é", count: 1025), false),
            (String(repeating: "e\u{301}", count: 1024), true), (String(repeating: "a", count: 1025), false),
        ] {
            let line = #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"\#(text)"}"#
            let (old, new) = DifferentialTests.both(line)
            #expect(old == new)
            #expect((new.failureReason == nil) == accepted)
        }
    }
}
