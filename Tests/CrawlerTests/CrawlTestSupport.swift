import Crawler
import Fetching
import FixtureServer
import Foundation
import GRDB
import Logging
import TestSupport
import Testing

@testable import Store

/// A crawl configuration for loopback fixture sites: private addresses allowed, no delay,
/// quick retries, apple-app-site-association over plain http.
func testConfiguration(seeds: [String], _ adjust: (inout CrawlConfiguration) -> Void = { _ in }) -> CrawlConfiguration {
    var configuration = CrawlConfiguration(
        seeds: seeds,
        fetch: FetchConfiguration(
            connectTimeout: .seconds(5), totalTimeout: .seconds(20), addressPolicy: .allowAll),
        concurrency: 8, perHostConcurrency: 2, delay: 0)
    configuration.retryBaseDelay = 0.05
    configuration.allowsPlainHTTPAppSiteAssociation = true
    adjust(&configuration)
    return configuration
}

/// Crawls with `configuration` into `store`.
func crawl(_ configuration: CrawlConfiguration, into store: SQLiteStore) async throws -> CrawlSummary {
    var logger = Logger(label: "test.crawl")
    logger.logLevel = .critical
    return try await Crawler(configuration: configuration, store: store, logger: logger).run()
}

/// The crawl fixture site with its redirects in place: `old.html` moved to `new.html`,
/// `loop-a.html` and `loop-b.html` redirecting to each other.
func startCrawlSite() async throws -> FixtureServer {
    let server = try await FixtureServer.start(site: "crawl")
    await server.setBehaviour(.redirect(status: 301, location: "/new.html"), for: "/old.html")
    await server.setBehaviour(.redirect(status: 302, location: "/loop-b.html"), for: "/loop-a.html")
    await server.setBehaviour(.redirect(status: 302, location: "loop-a.html"), for: "/loop-b.html")
    return server
}

/// Request targets (path and query) in arrival order.
func requestedTargets(_ server: FixtureServer) async -> [String] {
    await server.requests().map(\.path)
}

/// Runs a query against the store's SQLite file directly (read-only, a connection of its own), each
/// row as column name → text (NULL → absent).
func rows(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws -> [[String: String]] {
    var configuration = Configuration()
    configuration.readonly = true
    // A crawl writing at the same time may hold the lock for a moment (a checkpoint): wait for it.
    configuration.busyMode = .timeout(10)
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    return try queue.read { db in
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            var values: [String: String] = [:]
            for column in row.columnNames {
                let value: DatabaseValue = row[column]
                switch value.storage {
                case .null: break
                case .int64(let number): values[column] = String(number)
                case .double(let number): values[column] = String(number)
                case .string(let text): values[column] = text
                case .blob(let data): values[column] = "<\(data.count) bytes>"
                }
            }
            return values
        }
    }
}

/// When the crawler started each page request (the fetch log's dispatch time), in order: the
/// scheduler's own spacing, free of the server threads' scheduling jitter on a loaded machine.
func pageDispatchTimes(_ path: String) throws -> [Double] {
    try rows(path, "SELECT at FROM fetch_log WHERE url LIKE '%.html' OR url LIKE '%/' ORDER BY at")
        .compactMap { $0["at"].flatMap(Double.init) }
}
