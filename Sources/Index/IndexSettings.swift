import GRDB
import Store

/// The store-wide settings of the bridge (SPEC §7): the engagement threshold and the expiry
/// period are recorded in the store when given and apply from then on, because below the threshold
/// only hashes are kept (lowering it later cannot bring back content that was never stored).
public struct IndexSettings: Sendable, Hashable {
    /// The default number of distinct donors an activity needs (SPEC §4).
    public static let defaultEngagementThreshold = 3
    /// The default number of days an item stays public after it was last seen.
    public static let defaultExpiryDays = 30.0

    /// Distinct donors an activity needs before its content is stored and it may be published.
    public var engagementThreshold: Int
    /// Days an item stays public after it was last seen (crawled or donated).
    public var expiryDays: Double

    /// Creates settings.
    public init(
        engagementThreshold: Int = Self.defaultEngagementThreshold, expiryDays: Double = Self.defaultExpiryDays
    ) {
        self.engagementThreshold = engagementThreshold
        self.expiryDays = expiryDays
    }

    /// The settings stored in `db`, defaults for what was never set.
    static func read(_ db: Database) throws -> IndexSettings {
        var settings = IndexSettings()
        let rows = try Row.fetchAll(db, sql: "SELECT name, value FROM setting")
        for row in rows {
            let name: String = row["name"]
            let value: String = row["value"]
            switch name {
            case "engagement_threshold": settings.engagementThreshold = Int(value) ?? settings.engagementThreshold
            case "expiry_days": settings.expiryDays = Double(value) ?? settings.expiryDays
            default: break
            }
        }
        return settings
    }

    /// Records `threshold` and/or `expiryDays` when given.
    static func record(threshold: Int?, expiryDays: Double?, in db: Database) throws {
        if let threshold {
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('engagement_threshold', ?)",
                arguments: [String(threshold)])
        }
        if let expiryDays {
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('expiry_days', ?)",
                arguments: [String(expiryDays)])
        }
    }

    /// The store's hashing key (made once, at migration, from SQLite's random source).
    static func salt(_ db: Database) throws -> [UInt8] {
        let hex = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'salt'") ?? ""
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            guard let nibble = character.hexNibble else { continue }
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

extension UInt8 {
    fileprivate var hexNibble: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x61...0x66: self - 0x61 + 10
        case 0x41...0x46: self - 0x41 + 10
        default: nil
        }
    }
}
