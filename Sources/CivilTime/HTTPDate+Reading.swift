extension HTTPDate {
    /// The longest text read after trimming, in bytes: `Wednesday, 09-Nov-1994 08:49:37 GMT` is 36.
    static let maxBytes = 64

    /// The date in `bytes`, in whichever of the three forms they are written; see ``HTTPDate``.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, referenceYear: Int) -> HTTPDate? {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        guard end - start <= maxBytes else { return nil }
        var scanner = ByteScanner(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        // Long names first: `Sunday` would otherwise be read as `Sun` followed by junk.
        let longName = scanner.oneOf(longDays, ignoringCase: true)
        guard let name = longName ?? scanner.oneOf(shortDays, ignoringCase: true) else { return nil }
        var reading = Reading(exact: name.exact)
        let form: Form
        let fields: Fields?
        if scanner.skip(UInt8(ascii: ",")) {
            guard scanner.skip(0x20), let day = reading.day(&scanner) else { return nil }
            if scanner.skip(UInt8(ascii: "-")) {
                form = .rfc850
                reading.exact = reading.exact && longName != nil
                fields = reading.rfc850(&scanner, day: day, referenceYear: referenceYear)
            } else {
                form = .imfFixdate
                reading.exact = reading.exact && longName == nil
                fields = reading.imfFixdate(&scanner, day: day)
            }
        } else {
            form = .asctime
            reading.exact = reading.exact && longName == nil
            fields = reading.asctime(&scanner)
        }
        guard let fields, scanner.isAtEnd, let date = CivilDate(year: fields.year, month: fields.month, day: fields.day)
        else { return nil }
        return HTTPDate(
            secondsSince1970: date.daysSince1970 * 86_400 + fields.clock, form: form, isExact: reading.exact)
    }

    /// A date's fields as read, before the calendar checks them.
    private struct Fields {
        var year: Int
        var month: Int
        var day: Int
        /// Seconds into the day; 86,400 is the leap second after 23:59:59.
        var clock: Int
    }

    /// The parts the three forms share, and whether the text is exact so far.
    private struct Reading {
        var exact: Bool

        /// `Sun, 06 Nov 1994 08:49:37 GMT`, after `Sun, 06`.
        mutating func imfFixdate(_ scanner: inout ByteScanner, day: Int) -> Fields? {
            guard scanner.skip(0x20), let month = month(&scanner), scanner.skip(0x20), let year = scanner.digits(4),
                scanner.skip(0x20), let clock = clock(&scanner), scanner.skip(0x20), zone(&scanner)
            else { return nil }
            return Fields(year: year, month: month, day: day, clock: clock)
        }

        /// `Sunday, 06-Nov-94 08:49:37 GMT`, after `Sunday, 06-`.
        mutating func rfc850(_ scanner: inout ByteScanner, day: Int, referenceYear: Int) -> Fields? {
            guard let month = month(&scanner), scanner.skip(UInt8(ascii: "-")) else { return nil }
            let year: Int
            if let full = scanner.digits(4) {
                exact = false
                year = full
            } else if let twoDigits = scanner.digits(2) {
                // RFC 9110 §5.6.7: a year more than 50 years ahead is the most recent past year with these
                // digits.
                let candidate = referenceYear - referenceYear % 100 + twoDigits
                year =
                    candidate > referenceYear + 50
                    ? candidate - 100 : candidate <= referenceYear - 50 ? candidate + 100 : candidate
            } else {
                return nil
            }
            guard scanner.skip(0x20), let clock = clock(&scanner), scanner.skip(0x20), zone(&scanner) else {
                return nil
            }
            return Fields(year: year, month: month, day: day, clock: clock)
        }

        /// `Sun Nov  6 08:49:37 1994`, after `Sun`.
        mutating func asctime(_ scanner: inout ByteScanner) -> Fields? {
            guard scanner.skip(0x20), let month = month(&scanner), scanner.skip(0x20) else { return nil }
            // A one-digit day is padded with a space; `Nov 6` without the padding is a deviation.
            let day = scanner.skip(0x20) ? scanner.digits(1) : self.day(&scanner)
            guard let day, scanner.skip(0x20), let clock = clock(&scanner), scanner.skip(0x20),
                let year = scanner.digits(4)
            else { return nil }
            return Fields(year: year, month: month, day: day, clock: clock)
        }

        /// A two-digit day, or a one-digit one as a deviation.
        mutating func day(_ scanner: inout ByteScanner) -> Int? {
            if let day = scanner.digits(2) { return day }
            exact = false
            return scanner.digits(1)
        }

        /// A month's three-letter name, 1–12.
        mutating func month(_ scanner: inout ByteScanner) -> Int? {
            guard let month = scanner.oneOf(HTTPDate.months, ignoringCase: true) else { return nil }
            exact = exact && month.exact
            return month.position + 1
        }

        /// `hh:mm:ss` as seconds into the day: hours 00–23, minutes 00–59, seconds 00–60.
        func clock(_ scanner: inout ByteScanner) -> Int? {
            guard let hour = scanner.digits(2), hour < 24, scanner.skip(UInt8(ascii: ":")),
                let minute = scanner.digits(2), minute < 60, scanner.skip(UInt8(ascii: ":")),
                let second = scanner.digits(2), second <= 60
            else { return nil }
            return hour * 3_600 + minute * 60 + second
        }

        /// `GMT`, or one of the zones read for robustness (all of them UTC).
        mutating func zone(_ scanner: inout ByteScanner) -> Bool {
            guard let zone = scanner.oneOf(HTTPDate.zones, ignoringCase: true) else { return false }
            exact = exact && zone.exact && zone.position == 0
            return true
        }
    }
}
