import Foundation
internal import PlainText
internal import URLCanonical

/// The checks a decoded record passes before import: required fields present and non-empty,
/// URLs absolute `http`/`https`, dates ISO 8601, sizes bounded (SPEC §5: every input is untrusted).
enum DonationValidation {
    /// Identifiers, titles and other short strings, in characters.
    static let maxShortString = 1024
    /// `contentDescription`, in characters.
    static let maxDescription = 10_000
    /// URLs, in bytes.
    static let maxURLBytes = 4096
    /// Keywords per record, identifiers per deletion, keys in `requiredUserInfoKeys`, members of `userInfo`.
    /// The reader refuses a longer list before it reads an entry (``FieldReader``), so no check on a list
    /// costs more than this many entries.
    static let maxListCount = 1000

    /// The first problem of `record`, or `nil` when it may be imported.
    static func problem(in record: DonationRecord) -> String? {
        switch record {
        case .userActivity(let activity): return problem(in: activity)
        case .searchableItem(let item): return problem(in: item)
        case .delete(let deletion): return problem(in: deletion)
        }
    }

    private static func problem(in activity: UserActivityRecord) -> String? {
        let checks: [String?] = [
            required("bundleIdentifier", activity.bundleIdentifier), required("donor", activity.donor),
            required("activityType", activity.activityType), short("title", activity.title),
            url("webpageURL", activity.webpageURL), list("requiredUserInfoKeys", activity.requiredUserInfoKeys),
            list("keywords", activity.keywords), short("persistentIdentifier", activity.persistentIdentifier),
            identifier("bundleIdentifier", activity.bundleIdentifier),
            identifier("activityType", activity.activityType),
            identifier("persistentIdentifier", activity.persistentIdentifier),
            date("expirationDate", activity.expirationDate),
            activity.contentAttributeSet.flatMap { problem(in: $0, at: "contentAttributeSet") },
        ]
        return checks.lazy.compactMap { $0 }.first
    }

    private static func problem(in item: SearchableItemRecord) -> String? {
        let checks: [String?] = [
            required("bundleIdentifier", item.bundleIdentifier), required("uniqueIdentifier", item.uniqueIdentifier),
            short("domainIdentifier", item.domainIdentifier), date("expirationDate", item.expirationDate),
            identifier("bundleIdentifier", item.bundleIdentifier),
            identifier("uniqueIdentifier", item.uniqueIdentifier),
            identifier("domainIdentifier", item.domainIdentifier),
            item.attributeSet.flatMap { problem(in: $0, at: "attributeSet") },
        ]
        return checks.lazy.compactMap { $0 }.first
    }

    private static func problem(in deletion: DeletionRecord) -> String? {
        if let problem = required("bundleIdentifier", deletion.bundleIdentifier)
            ?? identifier("bundleIdentifier", deletion.bundleIdentifier)
        {
            return problem
        }
        let ways = [deletion.uniqueIdentifiers != nil, deletion.domainIdentifiers != nil, deletion.all != nil]
        guard ways.filter({ $0 }).count == 1 else {
            return "a delete record needs exactly one of 'uniqueIdentifiers', 'domainIdentifiers' or 'all'"
        }
        if let identifiers = deletion.uniqueIdentifiers ?? deletion.domainIdentifiers {
            let name = deletion.uniqueIdentifiers != nil ? "uniqueIdentifiers" : "domainIdentifiers"
            guard !identifiers.isEmpty else { return "\(name): must not be empty" }
            if let problem = list(name, identifiers) { return problem }
            if identifiers.contains(where: \.isEmpty) { return "\(name): an identifier is empty" }
            if let problem = identifiers.lazy.compactMap({ identifier(name, $0) }).first { return problem }
        }
        if deletion.all == false { return "all: must be true when given" }
        return nil
    }

    private static func problem(in attributes: DonatedAttributes, at prefix: String) -> String? {
        let checks: [String?] = [
            short("\(prefix).title", attributes.title),
            bounded("\(prefix).contentDescription", attributes.contentDescription, limit: maxDescription),
            url("\(prefix).thumbnailURL", attributes.thumbnailURL), url("\(prefix).contentURL", attributes.contentURL),
            list("\(prefix).keywords", attributes.keywords),
            short("\(prefix).relatedUniqueIdentifier", attributes.relatedUniqueIdentifier),
            short("\(prefix).weakRelatedUniqueIdentifier", attributes.weakRelatedUniqueIdentifier),
            short("\(prefix).domainIdentifier", attributes.domainIdentifier),
            identifier("\(prefix).relatedUniqueIdentifier", attributes.relatedUniqueIdentifier),
            identifier("\(prefix).weakRelatedUniqueIdentifier", attributes.weakRelatedUniqueIdentifier),
            identifier("\(prefix).domainIdentifier", attributes.domainIdentifier),
            rating("\(prefix).rating", attributes.rating),
            (attributes.ratingCount ?? 0) < 0 ? "\(prefix).ratingCount: must not be negative" : nil,
        ]
        return checks.lazy.compactMap { $0 }.first
    }

    private static func required(_ name: String, _ value: String) -> String? {
        // Fast path: an ASCII first byte other than space and tab is no `.whitespaces` member, so
        // trimming (costly on Linux, through NSString) cannot leave the string empty.
        if let first = value.utf8.first, first < 0x80, first != 0x20, first != 0x09 { return short(name, value) }
        return value.trimmingCharacters(in: .whitespaces).isEmpty ? "\(name): must not be empty" : short(name, value)
    }

    /// Identifiers are kept exactly as donated (they are matched against each other), so one holding a
    /// control character is refused rather than changed: it would reach the report and the terminal.
    private static func identifier(_ name: String, _ value: String?) -> String? {
        guard let value, PlainText.containsControl(value) else { return nil }
        return "\(name): contains a control character"
    }

    private static func short(_ name: String, _ value: String?) -> String? {
        bounded(name, value, limit: maxShortString)
    }

    private static func bounded(_ name: String, _ value: String?, limit: Int) -> String? {
        // A string has at most as many characters as UTF-8 bytes: count characters only when needed.
        guard let value, value.utf8.count > limit, value.count > limit else { return nil }
        return "\(name): longer than \(limit) characters"
    }

    /// Each entry short; the count was checked when the list was read.
    private static func list(_ name: String, _ values: [String]?) -> String? {
        guard let values else { return nil }
        return values.lazy.compactMap { short(name, $0) }.first
    }

    private static func url(_ name: String, _ value: String?) -> String? {
        guard let value else { return nil }
        guard value.utf8.count <= maxURLBytes else { return "\(name): longer than \(maxURLBytes) bytes" }
        guard WebURL.isHTTP(value) else {
            return "\(name): not an absolute http or https URL: '\(value.prefix(80))'"
        }
        return nil
    }

    private static func date(_ name: String, _ value: String?) -> String? {
        guard let value else { return nil }
        return DonationDates.isValid(value) ? nil : "\(name): not an ISO 8601 date: '\(value.prefix(40))'"
    }

    private static func rating(_ name: String, _ value: Double?) -> String? {
        guard let value else { return nil }
        return value.isFinite && value >= 0 ? nil : "\(name): must be a finite number ≥ 0"
    }
}

/// ISO 8601 dates as donation files carry them (`2027-01-01T00:00:00Z`, with or without fractional
/// seconds, any offset; a date alone is midnight UTC).
package enum DonationDates {
    /// Whether ``parse(_:)`` reads `text`; the usual `2027-01-01T00:00:00Z` with in-range fields is
    /// recognised without Foundation's parser (a few microseconds a call), anything else goes through it.
    static func isValid(_ text: String) -> Bool {
        isPlainUTC(text) || parse(text) != nil
    }

    /// The longest date read, in bytes: `2027-01-01T00:00:00.123456789+05:30` is 35. Foundation's parser
    /// takes any number of fractional digits; a longer text is no date a program wrote.
    static let maxBytes = 64

    /// The instant, or `nil` when `text` is not an ISO 8601 date.
    package static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= maxBytes else { return nil }
        // The usual form is read here: Foundation's parser costs microseconds a call, a million times
        // an import.
        if let seconds = plainUTCSeconds(text) { return Date(timeIntervalSince1970: seconds) }
        // Foundation's parser also rolls an impossible day over (`2027-02-30` becomes March 2): refuse a
        // day its month does not have first.
        guard hasPossibleCalendarDate(text) else { return nil }
        // Foundation's ISO 8601 parser rolls an hour of 25 over into the next day: refuse
        // out-of-range clock fields first.
        if let t = text.firstIndex(of: "T") {
            let clock = text[text.index(after: t)...].prefix(8).split(separator: ":").map { Int($0.prefix(2)) }
            guard clock.count >= 2, let hour = clock[0], let minute = clock[1], hour < 24, minute < 60 else {
                return nil
            }
            if clock.count > 2, let second = clock[2], second > 60 { return nil }
        }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(
            text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
    }

    /// Whether the date at the start of `text` (`YYYY-MM-DD` or `YYYYMMDD`) names a month from 1 to 12 and a
    /// day that month has; `true` for text that starts otherwise (Foundation's parser decides it).
    static func hasPossibleCalendarDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(10))
        let extended = bytes.count == 10 && bytes[4] == 0x2D && bytes[7] == 0x2D
        let fields: [Range<Int>] = extended ? [0..<4, 5..<7, 8..<10] : [0..<4, 4..<6, 6..<8]
        guard bytes.count >= fields[2].upperBound else { return true }
        var values: [Int] = []
        for range in fields {
            var value = 0
            for index in range {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { return true }
                value = value * 10 + Int(digit)
            }
            values.append(value)
        }
        let (year, month, day) = (values[0], values[1], values[2])
        guard (1...12).contains(month) else { return false }
        return (1...daysIn(month: month, year: year)).contains(day)
    }

    /// Days of `month` (1–12) in `year` of the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` with a year from 1970 to 9999, a day that exists in its month, hours
    /// below 24 and minutes and seconds below 60: dates Foundation's ISO 8601 parser always reads.
    static func isPlainUTC(_ text: String) -> Bool {
        plainUTCSeconds(text) != nil
    }

    /// The seconds since 1970 of a ``isPlainUTC(_:)`` date, or `nil` for any other text.
    static func plainUTCSeconds(_ text: String) -> Double? {
        guard text.utf8.count == 20 else { return nil }
        let bytes = Array(text.utf8)
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
            bytes[16] == 0x3A, bytes[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1970...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        guard (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        return Double(daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`: years counted from March, so the leap day ends a year).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
