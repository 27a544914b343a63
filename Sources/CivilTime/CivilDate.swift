/// A day of the proleptic Gregorian calendar, the calendar every date this program reads names (ISO 8601,
/// HTTP dates, sitemaps): the Gregorian leap-year rule applied to every year, year 0 included (1 BC).
///
/// The one place the program counts days: readers of date formats check their fields against it and turn
/// them into seconds since 1970 through ``daysSince1970``, with no time zone database and no locale.
package struct CivilDate: Hashable, Sendable {
    /// The year; 0 is 1 BC, and negative years go on backwards.
    package let year: Int
    /// The month, 1 (January) to 12.
    package let month: Int
    /// The day of the month, 1 to ``CivilDate/daysIn(month:year:)``.
    package let day: Int

    /// The date, or `nil` when `month` is not 1–12 or `day` is not a day that month has in `year`
    /// (`2027-02-29` is `nil`, `2028-02-29` is not).
    package init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (before it when negative); the inverse of ``daysSince1970``.
    package init(daysSince1970 days: Int) {
        // Howard Hinnant's `civil_from_days`: years counted from March, so the leap day ends a year and a
        // month's length is a linear function of its position (153 days every five months).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date, negative before it.
    package var daysSince1970: Int {
        // Howard Hinnant's `days_from_civil`, the inverse of `init(daysSince1970:)`. Eras of 400 years
        // (146,097 days) repeat exactly; the division rounds towards minus infinity so years before 0 work.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the week: 0 is Sunday, 6 is Saturday (the order HTTP dates and `asctime` name them in).
    package var weekday: Int {
        // 1970-01-01 was a Thursday (4).
        let remainder = (daysSince1970 + 4) % 7
        return remainder >= 0 ? remainder : remainder + 7
    }

    /// Whether `year` has a February 29: every fourth year, except centuries not divisible by 400
    /// (2000 and 2024 do, 1900 and 2100 do not).
    package static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days of `month` (1–12) in `year`; 0 for a month outside 1–12, so no day is ever in range.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        case 1, 3, 5, 7, 8, 10, 12: 31
        default: 0
        }
    }
}
