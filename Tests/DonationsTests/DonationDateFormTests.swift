import Donations
import FixtureServer
import Testing

/// A donation's `expirationDate` and a query's `$time.iso("…")` read dates with one reader (CivilTime's
/// `ISO8601Timestamp`); this suite and SearchQueryTests' `ISODateFormTests` hold both to one table,
/// `Fixtures/donations/date-forms.txt`.
@Suite("Donation dates accept what $time.iso accepts")
struct DonationDateFormTests {
    /// Each date of the table, and whether both accept it (`+`) or both refuse it (`-`).
    static let forms: [(date: String, accepted: Bool)] = ((try? Fixtures.bytes("donations/date-forms.txt")) ?? [])
        .split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        .filter { $0.hasPrefix("+ ") || $0.hasPrefix("- ") }.map { (String($0.dropFirst(2)), $0.hasPrefix("+")) }

    @Test("a date $time.iso accepts is imported, one it refuses is refused", arguments: forms)
    func agrees(date: String, accepted: Bool) {
        let line =
            #"{"type":"searchableItem","bundleIdentifier":"b","uniqueIdentifier":"u","expirationDate":"\#(date)"}"#
        let imported = DonationParser.parse(Array(line.utf8), file: "d.jsonl", number: 1).failureReason == nil
        #expect(imported == accepted)
        #expect((DonationDates.parse(date) != nil) == accepted)
    }

    @Test("the table is read and holds both verdicts")
    func table() {
        #expect(Self.forms.count == 20 && Self.forms.filter(\.accepted).count == 10)
    }

    @Test("an offset is applied whatever its size (Foundation's parser ignored +23:59)")
    func largeOffset() {
        #expect(DonationDates.parse("2027-01-01T23:59:00+23:59")?.timeIntervalSince1970 == 1_798_761_600)
        #expect(DonationDates.parse("2027-01-01")?.timeIntervalSince1970 == 1_798_761_600)
    }
}
