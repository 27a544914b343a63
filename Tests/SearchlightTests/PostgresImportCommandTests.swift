import FixtureServer
import Foundation
import TestSupport
import Testing

/// `searchlight import` and `searchlight delete` on a PostgreSQL store through the real executable: the
/// same output and exit status as on a SQLite store, and the rows in the database.
@Suite("import and delete with a PostgreSQL store", .timeLimit(.minutes(2)))
struct PostgresImportCommandTests {
    static let bundle = "com.example.recipes"

    static let lines = [
        #"{"type":"userActivity","bundleIdentifier":"\#(bundle)","donor":"d1","activityType":"view","#
            + #""isEligibleForPublicIndexing":true,"webpageURL":"https://a.test/tart","title":"Tart","#
            + #""contentAttributeSet":{"relatedUniqueIdentifier":"r-1"}}"#,
        #"{"type":"searchableItem","bundleIdentifier":"\#(bundle)","uniqueIdentifier":"r-1","domainIdentifier":"d"}"#,
        "{not json",
        #"{"type":"userActivity","bundleIdentifier":"\#(bundle)","donor":"d2","activityType":"view"}"#,
    ]

    /// Runs `import` then `delete` on `store`; returns what each printed and its exit status.
    static func run(store: String) async throws -> [String] {
        let input = lines.joined(separator: "\n") + "\n"
        let imported = try await CommandRunner.run(
            ["import", "-", "--engagement-threshold", "1", "--store", store], standardInput: input)
        let again = try await CommandRunner.run(["import", "-", "--json", "--store", store], standardInput: input)
        let deleted = try await CommandRunner.run(
            ["delete", "--identifier", "r-1", "--bundle", bundle, "--json", "--store", store])
        return [imported, again, deleted].map {
            "\($0.status)\n\($0.standardOutput)\($0.standardError)"
        }
    }

    @Test("import and delete print the same on PostgreSQL as on SQLite, and write the same rows")
    func sameAsSQLite() async throws {
        let cluster = try await PostgresCluster.shared()
        let database = try await cluster.makeDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let onPostgres = try await Self.run(store: cluster.url(database: database))
        let onSQLite = try await Self.run(store: folder.appendingPathComponent("s.sqlite").path)
        #expect(onPostgres == onSQLite)
        #expect(onPostgres[0].hasPrefix("1\n3 records read from 1 file(s), 1 rejected\n"), "\(onPostgres[0])")
        #expect(onPostgres[0].contains("  activities stored or changed: 1\n"), "\(onPostgres[0])")
        #expect(onPostgres[0].contains("-:3: "), "\(onPostgres[0])")
        #expect(onPostgres[1].contains(#""newDonations":0"#), "\(onPostgres[1])")
        #expect(onPostgres[2] == "0\n" + #"{"deletedActivities":1,"deletedItems":1}"# + "\n", "\(onPostgres[2])")

        let counts = try await cluster.psql(
            """
            SELECT (SELECT count(*) FROM app_item) || ' ' || (SELECT count(*) FROM activity) || ' '
                || (SELECT count(*) FROM donation) || ' ' || (SELECT count(*) FROM withheld_record) || ' '
                || (SELECT value FROM setting WHERE name = 'engagement_threshold')
            """, database: database)
        #expect(counts == "0 0 0 1 1\n")
    }
}
