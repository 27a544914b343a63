import Donations
import FixtureServer
import Foundation
import GRDB
import Index
import TestSupport
import Testing

@testable import Store

/// A new, empty store of one engine, as `import` and `delete` see it (``DonationStore``), a folder for
/// donation files, and a look into its tables that does not go through the product's code.
struct DonationStoreUnderTest: Sendable {
    let store: any DonationStore
    /// Where the donation files are written (and, for SQLite, the store file).
    let files: TemporaryStore
    private let postgres: PostgresStore?

    static func make(_ engine: StoreEngine) async throws -> DonationStoreUnderTest {
        let files = try TemporaryStore()
        switch engine {
        case .sqlite:
            return DonationStoreUnderTest(store: try files.open(), files: files, postgres: nil)
        case .postgres:
            let database = try await PostgresCluster.shared().makeStore()
            return DonationStoreUnderTest(store: database, files: files, postgres: database)
        }
    }

    func cleanUp() async {
        await postgres?.close()
        files.cleanUp()
    }

    /// Imports `lines`, written to a file `name`.
    func importLines(
        _ lines: [String], threshold: Int? = nil, strict: Bool = false, now: Date = Date(),
        name: String = "donations.jsonl"
    ) async throws -> ImportSummary {
        try await importFiles(
            [try donationFile(lines, in: files, name: name)], threshold: threshold, strict: strict, now: now)
    }

    func importFiles(
        _ paths: [String], threshold: Int? = nil, strict: Bool = false, now: Date = Date()
    ) async throws -> ImportSummary {
        try await DonationImporter(store: store, logger: quietLogger).importFiles(
            paths, engagementThreshold: threshold, strict: strict, now: now)
    }

    func delete(_ deletion: DeletionRecord) async throws -> ImportSummary {
        try await DonationImporter(store: store, logger: quietLogger).delete(deletion)
    }

    /// Publishes the store as `searchlight publish` does.
    func publish(threshold: Int? = nil, now: Date = Date()) async throws -> PublishSummary {
        let publisher =
            if let postgres {
                Publisher(store: postgres, logger: quietLogger)
            } else {
                Publisher(store: try files.open(), logger: quietLogger)
            }
        return try await publisher.publish(engagementThreshold: threshold, now: now)
    }

    /// The integer `sql` (written for both engines) returns.
    func count(_ sql: String) async throws -> Int {
        guard let postgres else { return try files.count(sql) }
        guard case .integer(let value) = try await postgres.rows(sql).first?.first else { return 0 }
        return Int(value)
    }

    /// The first column of `sql`'s rows as text (written for both engines; NULL as "NULL").
    func texts(_ sql: String) async throws -> [String] {
        guard let postgres else {
            return try files.readOnly { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    let value: DatabaseValue = row[0]
                    return value.isNull ? "NULL" : (String.fromDatabaseValue(value) ?? value.description)
                }
            }
        }
        return try await postgres.rows(sql).map { row in
            switch row.first {
            case .text(let text): text
            case .integer(let value): String(value)
            case .double(let value): String(value)
            case .boolean(let value): String(value)
            case .null, nil: "NULL"
            }
        }
    }

    /// Runs `sql` (written for both engines) directly, not through the product's code.
    func execute(_ sql: String) async throws {
        guard let postgres else {
            try await DatabaseQueue(path: files.path).write { db in try db.execute(sql: sql) }
            return
        }
        _ = try await postgres.rows(sql)
    }

    /// The rows of the tables a donation writes, each row its values joined by `|` (NULL as "NULL", blobs
    /// in upper-case hex): `activity` in id order without the id (the engines number rows alike only in
    /// order), the other tables sorted.
    func donationTables() async throws -> [String: [String]] {
        let hex = { (column: String) in postgres == nil ? "hex(\(column))" : "upper(encode(\(column), 'hex'))" }
        let queries = [
            "donation": "SELECT \(hex("identity")), \(hex("donor")), bundle FROM donation",
            "withheld_record": "SELECT \(hex("hash")), bundle, reason FROM withheld_record",
            "activity": """
            SELECT \(hex("identity")), bundle, activity_type, webpage_url, url_key, persistent_identifier,
                related_id, weak_related_id, domain_identifier, title, description, keywords, thumbnail_url,
                rating, rating_count, user_info, expires_at, donors, first_seen, last_seen, version
            FROM activity ORDER BY id
            """,
            "app_item": "SELECT bundle, unique_identifier, domain_identifier, expires_at, last_seen FROM app_item",
            "pending_url": "SELECT url_key, url, added_at FROM pending_url",
        ]
        var tables: [String: [String]] = [:]
        for (table, sql) in queries {
            let rows = try await rowTexts(sql)
            tables[table] = table == "activity" ? rows : rows.sorted()
        }
        return tables
    }

    private func rowTexts(_ sql: String) async throws -> [String] {
        guard let postgres else {
            return try files.readOnly { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    row.databaseValues.map { value in
                        switch value.storage {
                        case .null: "NULL"
                        case .int64(let integer): String(integer)
                        case .double(let double): String(double)
                        case .string(let text): text
                        case .blob(let data): data.map { String(format: "%02X", $0) }.joined()
                        }
                    }.joined(separator: "|")
                }
            }
        }
        return try await postgres.rows(sql).map { row in
            row.map { value in
                switch value {
                case .null: "NULL"
                case .integer(let integer): String(integer)
                case .double(let double): String(double)
                case .text(let text): text
                case .boolean(let flag): String(flag)
                }
            }.joined(separator: "|")
        }
    }

    /// Every row of every table as text, each `bytea` in PostgreSQL's hex form: what an outside tool reading
    /// the database sees. SQLite: the rows, and the file's own bytes.
    func everything() async throws -> Data {
        guard let postgres else {
            var data = try files.rawBytes()
            data.append(Data(try files.dump().utf8))
            return data
        }
        var text = ""
        let tables = try await postgres.rows(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
        for case .text(let table) in tables.compactMap(\.first) {
            text += "# \(table)\n"
            for case .text(let row) in try await postgres.rows("SELECT row_to_json(t)::text FROM \"\(table)\" t")
                .compactMap(\.first)
            {
                text += row + "\n"
            }
        }
        return Data(text.utf8)
    }
}
