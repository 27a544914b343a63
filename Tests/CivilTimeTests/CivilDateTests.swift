import Foundation
import Testing

@testable import CivilTime

@Suite("CivilDate: the proleptic Gregorian calendar")
struct CivilDateTests {
    @Test(
        "leap years are every fourth, except centuries not divisible by 400",
        arguments: [
            (1900, false), (2000, true), (2024, true), (2100, false), (2027, false), (2028, true), (1600, true),
            (0, true), (-4, true), (-100, false),
        ])
    func leapYears(year: Int, isLeap: Bool) {
        #expect(CivilDate.isLeapYear(year) == isLeap)
        #expect((CivilDate(year: year, month: 2, day: 29) != nil) == isLeap)
        #expect(CivilDate(year: year, month: 2, day: 28) != nil)
    }

    @Test(
        "every month's last day exists and the day after it does not",
        arguments: [
            (1, 31), (2, 28), (3, 31), (4, 30), (5, 31), (6, 30), (7, 31), (8, 31), (9, 30), (10, 31), (11, 30),
            (12, 31),
        ])
    func monthLengths(month: Int, days: Int) {
        #expect(CivilDate.daysIn(month: month, year: 2027) == days)
        #expect(CivilDate(year: 2027, month: month, day: days) != nil)
        #expect(CivilDate(year: 2027, month: month, day: days + 1) == nil)
        #expect(CivilDate(year: 2027, month: month, day: 0) == nil)
        // The last day and the next month's first are one day apart.
        if let last = CivilDate(year: 2027, month: month, day: days) {
            let next = CivilDate(daysSince1970: last.daysSince1970 + 1)
            #expect(next.day == 1 && next.month == month % 12 + 1)
        }
    }

    @Test("months outside 1–12 are no dates", arguments: [0, 13, -1, 100])
    func invalidMonths(month: Int) {
        #expect(CivilDate(year: 2027, month: month, day: 1) == nil)
        #expect(CivilDate.daysIn(month: month, year: 2027) == 0)
    }

    /// Foundation's Gregorian calendar is Julian before 1582-10-15 (the reform); CivilDate, like ISO 8601, is
    /// Gregorian throughout, so the two are compared from that day on, and before it on a known date.
    @Test(
        "days since 1970 agree with Foundation's Gregorian calendar from the reform on, both ways",
        arguments: [-141_427, -135_081, -25_567, -1, 0, 1, 10_957, 11_016, 19_782, 20_819, 47_541, 2_932_896])
    func daysSince1970(days: Int) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let instant = Date(timeIntervalSince1970: Double(days) * 86_400)
        let parts = calendar.dateComponents([.era, .year, .month, .day, .weekday], from: instant)
        let date = CivilDate(daysSince1970: days)
        // Foundation counts years before 1 AD by era (1 BC is year 1 of era 0); CivilDate counts 1 BC as 0.
        let year = try #require(parts.era == 0 ? parts.year.map { 1 - $0 } : parts.year)
        #expect(date.year == year && date.month == parts.month && date.day == parts.day)
        #expect(date.weekday + 1 == parts.weekday)
        #expect(date.daysSince1970 == days)
        #expect(CivilDate(year: date.year, month: date.month, day: date.day) == date)
    }

    @Test("before the reform the calendar stays Gregorian: 0000-01-01 is 719,528 days before 1970, a Saturday")
    func prolepticYears() {
        let first = CivilDate(daysSince1970: -719_528)
        #expect(first.year == 0 && first.month == 1 && first.day == 1 && first.weekday == 6)
        #expect(CivilDate(year: 1582, month: 10, day: 14)?.daysSince1970 == -141_428)
    }

    @Test("every day of 1600–2400 round-trips through its day count")
    func roundTrip() {
        let start = CivilDate(year: 1600, month: 1, day: 1)?.daysSince1970 ?? 0
        let end = CivilDate(year: 2400, month: 12, day: 31)?.daysSince1970 ?? 0
        var previous = CivilDate(daysSince1970: start - 1)
        var failures = 0
        for days in start...end {
            let date = CivilDate(daysSince1970: days)
            // Each day follows the previous one in the calendar, and counts back to itself.
            let follows =
                date.day == previous.day + 1 && date.month == previous.month
                || date.day == 1 && previous.day == CivilDate.daysIn(month: previous.month, year: previous.year)
            if !follows || date.daysSince1970 != days || (date.weekday - previous.weekday + 7) % 7 != 1 {
                failures += 1
            }
            previous = date
        }
        #expect(failures == 0)
    }
}
