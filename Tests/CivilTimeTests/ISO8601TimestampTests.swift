import Foundation
import Testing

@testable import CivilTime

@Suite("ISO8601Timestamp: the one ISO 8601 reader")
struct ISO8601TimestampTests {
    @Test(
        "each accepted form reads as its instant",
        arguments: [
            ("2027-01-01", 1_798_761_600.0),
            ("2027-01-01T00:00:00Z", 1_798_761_600),
            ("2027-01-01t00:00:00z", 1_798_761_600),
            ("2027-01-01 00:00:00Z", 1_798_761_600),
            ("2027-01-01T00:00:00", 1_798_761_600),
            ("2027-01-01T00:00Z", 1_798_761_600),
            ("2027-01-01T00:00:00.5Z", 1_798_761_600.5),
            ("2027-01-01T00:00:00.250Z", 1_798_761_600.25),
            ("2027-01-01T01:00:00+01:00", 1_798_761_600),
            ("2027-01-01T01:00:00+0100", 1_798_761_600),
            ("2027-01-01T01:00:00+01", 1_798_761_600),
            ("2026-12-31T23:00:00-01:00", 1_798_761_600),
            ("2027-01-01T00:00:00-00:00", 1_798_761_600),
            ("2027-01-01T05:30:00+05:30", 1_798_761_600),
            ("2027-01-01T23:59:00+23:59", 1_798_761_600),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59Z", -1),
            ("0000-01-01", -62_167_219_200),
            ("9999-12-31T23:59:59Z", 253_402_300_799),
        ])
    func reads(text: String, seconds: Double) {
        #expect(ISO8601Timestamp.secondsSince1970(text) == seconds)
    }

    @Test(
        "leap days exist only in leap years",
        arguments: [("1900-02-29", false), ("2000-02-29", true), ("2024-02-29", true), ("2100-02-29", false)])
    func leapDays(text: String, exists: Bool) {
        #expect((ISO8601Timestamp.secondsSince1970(text) != nil) == exists)
        #expect((ISO8601Timestamp.secondsSince1970(text + "T12:00:00Z") != nil) == exists)
    }

    @Test("every month's last day is read, the day after it refused", arguments: 1...12)
    func monthEnds(month: Int) {
        let last = CivilDate.daysIn(month: month, year: 2027)
        let prefix = "2027-" + (month < 10 ? "0" : "") + "\(month)-"
        #expect(ISO8601Timestamp.secondsSince1970(prefix + "\(last)T23:59:59Z") != nil)
        #expect(ISO8601Timestamp.secondsSince1970(prefix + "\(last + 1)T00:00:00Z") == nil)
    }

    @Test(
        "impossible dates and out-of-range fields are refused, never rolled over",
        arguments: [
            "2027-02-29", "2027-02-30T00:00:00Z", "2027-04-31", "2027-00-10", "2027-13-01", "2027-11-00",
            "2027-01-01T24:00:00Z", "2027-01-01T23:60:00Z", "2027-01-01T00:00:61Z", "2027-01-01T00:00:75Z",
            "2027-01-01T00:00:00+24:00", "2027-01-01T00:00:00+01:60", "10000-01-01",
        ])
    func refusesImpossible(text: String) {
        #expect(ISO8601Timestamp.secondsSince1970(text) == nil)
    }

    @Test(
        "texts that are not the profile are refused",
        arguments: [
            "", "2027", "2027-01", "20270101", "20270101T000000Z", "2027-1-1", "2027-001", "2027-W01-1",
            "+2027-01-01", " 2027-01-01", "2027-01-01 ", "2027-01-01Z", "2027-01-01T", "2027-01-01T00Z",
            "2027-01-01T1:00:00Z", "2027-01-01T00:00:0Z", "2027-01-01T00:00:00.Z", "2027-01-01T00:00:00,5Z",
            "2027-01-01T00:00:00UTC", "2027-01-01T00:00:00 Z", "2027-01-01T00:00:00+01:00:00",
            "2027-01-01T00:00:00+1", "2027-03T10:00Z", "2027-01-01T00:00:00." + String(repeating: "0", count: 60) + "Z",
        ])
    func refusesOtherForms(text: String) {
        #expect(ISO8601Timestamp.secondsSince1970(text) == nil)
    }

    @Test(
        "second 60 is a leap second, read as the next minute's first, as Foundation reads it",
        arguments: ["2016-12-31T23:59:60Z", "2027-01-01T00:00:60Z", "2015-07-01T05:29:60+05:30"])
    func leapSecond(text: String) throws {
        let seconds = try #require(ISO8601Timestamp.secondsSince1970(text))
        #expect(seconds.truncatingRemainder(dividingBy: 60) == 0)
        #expect(try Date(text, strategy: .iso8601).timeIntervalSince1970 == seconds)
    }

    @Test("a year or a month alone is read with reduced precision only")
    func reducedPrecision() {
        #expect(ISO8601Timestamp.secondsSince1970("2024", reducedPrecision: true) == 1_704_067_200)
        #expect(ISO8601Timestamp.secondsSince1970("2024-03", reducedPrecision: true) == 1_709_251_200)
        #expect(ISO8601Timestamp.secondsSince1970("2024-13", reducedPrecision: true) == nil)
        #expect(ISO8601Timestamp.secondsSince1970("2024-03T10:00Z", reducedPrecision: true) == nil)
        #expect(ISO8601Timestamp.secondsSince1970("2024") == nil)
    }

    /// Instants from 1583 (Foundation's calendar is Julian before the 1582 reform, ISO 8601's Gregorian
    /// throughout) to 9999, every nine months or so at an odd time of day.
    static let instants = Array(stride(from: -12_212_553_600.0, to: 253_402_300_799, by: 24_192_373.0))

    @Test("round trips: Foundation's ISO 8601 text of an instant reads back as that instant")
    func roundTrips() throws {
        var failures: [String] = []
        for seconds in Self.instants {
            let date = Date(timeIntervalSince1970: seconds)
            let plain = date.formatted(.iso8601)
            let fractional = date.addingTimeInterval(0.25)
                .formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let offset = date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: -34_200) ?? .gmt))
            let dateOnly = date.formatted(Date.ISO8601FormatStyle().year().month().day())
            let midnight = (seconds / 86_400).rounded(.down) * 86_400
            for (text, expected) in [
                (plain, seconds), (fractional, seconds + 0.25), (offset, seconds), (dateOnly, midnight),
            ]
            where ISO8601Timestamp.secondsSince1970(text) != expected {
                failures.append(text)
            }
            // And Foundation reads the instant this reader reads.
            if try Date(plain, strategy: .iso8601).timeIntervalSince1970 != ISO8601Timestamp.secondsSince1970(plain) {
                failures.append(plain)
            }
        }
        #expect(Self.instants.count > 10_000)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
