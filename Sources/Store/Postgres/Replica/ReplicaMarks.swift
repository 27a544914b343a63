import GRDB

/// What a replica file records about itself, in its `setting` table: the store it copies, the generation it
/// holds and the format its rows were written in (a new format rebuilds every replica).
enum ReplicaMarks {
    /// The format of replica files this build writes.
    static let format = "1"

    static let identitySetting = "replica_store"
    static let generationSetting = "replica_generation"
    static let formatSetting = "replica_format"

    struct Values {
        var identity: String?
        var generation: Int64?
        var format: String?
    }

    static func read(_ db: Database) throws -> Values {
        var values = Values()
        for row in try Row.fetchAll(
            db, sql: "SELECT name, value FROM setting WHERE name IN (?, ?, ?)",
            arguments: [identitySetting, generationSetting, formatSetting])
        {
            let name: String = row[0]
            let value: String = row[1]
            switch name {
            case identitySetting: values.identity = value
            case generationSetting: values.generation = Int64(value)
            default: values.format = value
            }
        }
        return values
    }

    static func setGeneration(_ generation: Int64, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?)",
            arguments: [generationSetting, String(generation)])
    }

    static func write(identity: String, generation: Int64, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?), (?, ?)",
            arguments: [identitySetting, identity, formatSetting, format])
        try setGeneration(generation, in: db)
    }
}
