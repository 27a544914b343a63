internal import ASCIIText
import GRDB

/// The store-wide settings of the bridge in a SQLite store (`setting`): the hashing key, the engagement
/// threshold and the expiry period. The importer and the publisher record and read them in their own
/// transactions.
extension SQLiteStore {
    /// The settings stored in `db`; a threshold or period never recorded (or unreadable) is `nil`.
    static func donationSettings(_ db: Database) throws -> DonationSettings {
        var settings = DonationSettings(salt: [], engagementThreshold: nil, expiryDays: nil)
        for row in try Row.fetchAll(db, sql: "SELECT name, value FROM setting") {
            settings.take(name: row["name"], value: row["value"])
        }
        return settings
    }

    /// Records `engagementThreshold` and/or `expiryDays` when given.
    static func recordSettings(engagementThreshold: Int?, expiryDays: Double?, in db: Database) throws {
        if let engagementThreshold {
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('engagement_threshold', ?)",
                arguments: [String(engagementThreshold)])
        }
        if let expiryDays {
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('expiry_days', ?)",
                arguments: [String(expiryDays)])
        }
    }

    /// Removes the stored content of activities below `threshold` (after it was raised): below it only
    /// hashes may be kept.
    static func purgeActivities(below threshold: Int, in db: Database) throws {
        try db.execute(sql: "DELETE FROM activity WHERE donors < ?", arguments: [threshold])
    }

    /// The bytes `hex` spells (the salt is stored as lowercase hex); characters that are not hex digits are
    /// skipped, and an odd last digit is dropped.
    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            guard let nibble = Hex.value(of: character) else { continue }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}

extension DonationSettings {
    /// Takes the `setting` row `name` = `value` when it is one of these settings (either engine stores them
    /// as text); an unreadable value leaves the setting `nil`.
    mutating func take(name: String, value: String) {
        switch name {
        case "engagement_threshold": engagementThreshold = Int(value)
        case "expiry_days": expiryDays = Double(value)
        case "salt": salt = SQLiteStore.bytes(hex: value)
        default: break
        }
    }
}
