import FixtureServer
import SearchQuery
import Testing

/// `$time.iso("…")` and a donation's `expirationDate` read dates with one reader (CivilTime's
/// `ISO8601Timestamp`); this suite and DonationsTests' `DonationDateFormTests` hold both to one table,
/// `Fixtures/donations/date-forms.txt`.
@Suite("$time.iso accepts what a donation's date accepts")
struct ISODateFormTests {
    /// Each date of the table, and whether both accept it (`+`) or both refuse it (`-`).
    static let forms: [(date: String, accepted: Bool)] = ((try? Fixtures.bytes("donations/date-forms.txt")) ?? [])
        .split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        .filter { $0.hasPrefix("+ ") || $0.hasPrefix("- ") }.map { (String($0.dropFirst(2)), $0.hasPrefix("+")) }

    @Test(
        "a date a donation may carry is a $time.iso argument; one it may not is refused at its column",
        arguments: forms)
    func agrees(date: String, accepted: Bool) throws {
        let query = #"published > $time.iso("\#(date)")"#
        guard accepted else {
            #expect {
                try QueryParser.parse(query)
            } throws: { error in
                (error as? QuerySyntaxError).map { $0.column == 23 && $0.message.contains("not an ISO 8601 date") }
                    ?? false
            }
            return
        }
        #expect(
            try QueryParser.parse(query)
                == .comparison(
                    attribute: "published", op: .greater,
                    value: .time(TimeExpression(function: "iso", offset: 0, isoText: date)), modifiers: []))
    }

    @Test("the table is read and holds both verdicts")
    func table() {
        #expect(Self.forms.count == 20 && Self.forms.filter(\.accepted).count == 10)
    }
}
