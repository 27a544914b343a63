import Crawler
import Fetching
import Foundation
import GRDB
import Index
import Logging
import Store
import TestSupport

/// Writes JSON Lines donation records to a temporary file.
func donationFile(_ lines: [String], in store: TemporaryStore, name: String = "donations.jsonl") throws -> String {
    let path = store.folder.appendingPathComponent(name).path
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// One userActivity line (SPEC §6) with the given fields merged over eligible defaults.
func activityLine(donor: String, _ fields: [String: Any] = [:]) -> String {
    var record: [String: Any] = [
        "type": "userActivity", "bundleIdentifier": "com.example.recipes", "donor": donor,
        "activityType": "com.example.recipes.view", "isEligibleForPublicIndexing": true,
    ]
    record.merge(fields) { $1 }
    guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return "{" }
    return String(decoding: data, as: UTF8.self)
}

let quietLogger: Logger = {
    var logger = Logger(label: "test.index")
    logger.logLevel = .critical
    return logger
}()

extension TemporaryStore {
    func importFiles(
        _ paths: [String], threshold: Int? = nil, strict: Bool = false, now: Date = Date()
    ) async throws -> ImportSummary {
        try await DonationImporter(store: open(), logger: quietLogger).importFiles(
            paths, engagementThreshold: threshold, strict: strict, now: now)
    }

    func publish(threshold: Int? = nil, now: Date = Date()) async throws -> PublishSummary {
        try await Publisher(store: open(), logger: quietLogger).publish(engagementThreshold: threshold, now: now)
    }

    /// Every row of every table, as text: what an outside tool reading the file sees.
    func dump() throws -> String {
        try readOnly { db in
            var text = ""
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            for table in tables {
                text += "# \(table)\n"
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY 1") {
                    text += row.description + "\n"
                }
            }
            return text
        }
    }

    /// The raw bytes of the database file and its WAL, after a checkpoint: proves what is not stored.
    func rawBytes() throws -> Data {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { data.append(wal) }
        return data
    }

    /// Crawls `seeds` (and the pending activity pages) into the store, loopback allowed, no delay.
    /// Crawls into the store as a loopback test site is crawled: association files over plain http too (a
    /// donated page off the seeds' sites is fetched only when its host's file names the app).
    func crawl(seeds: [String], plainHTTPAppSiteAssociation: Bool = true) async throws {
        var configuration = CrawlConfiguration(
            seeds: seeds,
            fetch: FetchConfiguration(
                connectTimeout: .seconds(5), totalTimeout: .seconds(20), addressPolicy: .allowAll),
            concurrency: 8, perHostConcurrency: 2, delay: 0)
        configuration.allowsPlainHTTPAppSiteAssociation = plainHTTPAppSiteAssociation
        _ = try await Crawler(configuration: configuration, store: open(), logger: quietLogger).run()
    }

    func count(_ sql: String) throws -> Int {
        try readOnly { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }
}
