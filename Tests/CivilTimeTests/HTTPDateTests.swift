import Foundation
import Testing

@testable import CivilTime

@Suite("HTTPDate: RFC 9110 dates, read and written")
struct HTTPDateTests {
    /// RFC 9110's own example instant, `Sun, 06 Nov 1994 08:49:37 GMT`.
    static let example = 784_111_777

    @Test(
        "the three forms, written exactly",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", HTTPDate.Form.imfFixdate),
            ("Sunday, 06-Nov-94 08:49:37 GMT", .rfc850),
            ("Sun Nov  6 08:49:37 1994", .asctime),
            ("Sun Nov 06 08:49:37 1994", .asctime),
            (" \tSun, 06 Nov 1994 08:49:37 GMT ", .imfFixdate),
        ])
    func exactForms(text: String, form: HTTPDate.Form) throws {
        let date = try #require(HTTPDate(text, referenceYear: 2026))
        #expect(date.secondsSince1970 == Self.example && date.form == form && date.isExact)
        #expect(date.isIMFFixdate == (form == .imfFixdate))
    }

    @Test(
        "deviations real servers send are read, and mark the date not exact",
        arguments: [
            "sun, 06 nov 1994 08:49:37 gmt", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 UT", "Sun, 06 Nov 1994 08:49:37 +0000", "Sun, 06 Nov 1994 08:49:37 Z",
            "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sun Nov 6 08:49:37 1994",
        ])
    func deviations(text: String) throws {
        let date = try #require(HTTPDate(text, referenceYear: 2026))
        #expect(date.secondsSince1970 == Self.example && !date.isExact && !date.isIMFFixdate)
    }

    @Test(
        "what is no HTTP date is refused",
        arguments: [
            "", "0", "-1", "not a date", "Foo, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 1994 08:49:37 +0100", "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Nov 1994 08:49:37 GMT junk", "06 Nov 1994 08:49:37 GMT", "Sun,06 Nov 1994 08:49:37 GMT",
            "Sun, 06  Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
            "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37.5 GMT", "Sun Nov  6 08:49:37 1994 GMT",
        ])
    func refuses(text: String) {
        #expect(HTTPDate(text, referenceYear: 2026) == nil)
    }

    @Test(
        "impossible dates and out-of-range fields are refused; second 60 is a leap second",
        arguments: [
            ("Sun, 29 Feb 1900 00:00:00 GMT", nil), ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600),
            ("Sun, 31 Feb 1994 08:49:37 GMT", nil), ("Sun, 32 Nov 1994 08:49:37 GMT", nil),
            ("Sun, 00 Nov 1994 08:49:37 GMT", nil), ("Sun, 06 Nov 1994 24:00:00 GMT", nil),
            ("Sun, 06 Nov 1994 08:60:00 GMT", nil), ("Sun, 06 Nov 1994 08:49:75 GMT", nil),
            ("Sat, 31 Dec 2016 23:59:60 GMT", 1_483_228_800), ("Sun Nov 31 08:49:37 1994", nil),
        ] as [(String, Int?)])
    func fieldRanges(text: String, seconds: Int?) {
        #expect(HTTPDate(text, referenceYear: 2026)?.secondsSince1970 == seconds)
    }

    @Test(
        "an RFC 850 two-digit year is at most 50 years ahead of the reference year",
        arguments: [(2026, 76, 2076), (2026, 77, 1977), (2026, 0, 2000), (1994, 94, 1994), (2099, 1, 2101)])
    func twoDigitYears(referenceYear: Int, digits: Int, year: Int) throws {
        let text = "Monday, 01-Jan-" + (digits < 10 ? "0" : "") + "\(digits) 00:00:00 GMT"
        let date = try #require(HTTPDate(text, referenceYear: referenceYear))
        #expect(CivilDate(daysSince1970: date.secondsSince1970 / 86_400).year == year)
    }

    @Test("an IMF-fixdate written here reads back as its instant, and as Foundation writes it")
    func roundTrips() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var failures: [Int] = []
        for seconds in stride(from: -2_208_988_800, through: 4_102_444_800, by: 1_234_567) {
            let text = HTTPDate.imfFixdate(secondsSince1970: seconds)
            let read = HTTPDate(text)
            if read?.secondsSince1970 != seconds || read?.isIMFFixdate != true
                || text != formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            {
                failures.append(seconds)
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(HTTPDate.imfFixdate(secondsSince1970: Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.imfFixdate(secondsSince1970: -1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }
}
