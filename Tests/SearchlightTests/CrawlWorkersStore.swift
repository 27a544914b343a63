import FixtureServer
import Foundation
import GRDB
import TestSupport
import Testing

/// A new, empty store of one engine for a test, and a look into it without the product's code: a SQLite
/// file read through GRDB, or a database of the shared throw-away PostgreSQL cluster read through `psql`.
struct WorkersTestStore: Sendable {
    /// What `--store` takes.
    let argument: String
    private let sqlitePath: String?
    private let cluster: PostgresCluster?
    private let database: String?
    /// The folder to remove at the end (SQLite).
    let folder: URL?

    static func make(_ engine: StoreEngine) async throws -> WorkersTestStore {
        switch engine {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workers-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("s.sqlite").path
            return WorkersTestStore(argument: path, sqlitePath: path, cluster: nil, database: nil, folder: folder)
        case .postgres:
            let cluster = try await PostgresCluster.shared()
            let database = try await cluster.makeDatabase()
            return WorkersTestStore(
                argument: cluster.url(database: database), sqlitePath: nil, cluster: cluster, database: database,
                folder: nil)
        }
    }

    func cleanUp() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// The rows of `sql` (the same text on both engines), each as its columns' text joined by `|`.
    func lines(_ sql: String) async throws -> [String] {
        if let sqlitePath {
            return try await DatabaseQueue(path: sqlitePath).read { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    row.databaseValues.map { value in
                        switch value.storage {
                        case .null: ""
                        case .int64(let number): String(number)
                        case .double(let number): String(number)
                        case .string(let text): text
                        case .blob(let data): "\(data.count) bytes"
                        }
                    }.joined(separator: "|")
                }
            }
        }
        guard let cluster, let database else { return [] }
        let output = try await cluster.psql(sql, database: database)
        return output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The number `sql` answers.
    func count(_ sql: String) async throws -> Int {
        Int(try await lines(sql).first ?? "") ?? -1
    }
}
