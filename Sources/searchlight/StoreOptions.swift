import ArgumentParser
import Foundation
import Store

/// `--store PATH|postgres://…`: the store every stateful command shares (SPEC §1, §7), or the one
/// `SEARCHLIGHT_STORE` names; the option wins.
///
/// A malformed value is a usage error (exit 2), found before the command does anything. A PostgreSQL store
/// is connected to and migrated, so a wrong address or credentials fail with exit 3 and one line. `crawl`,
/// `import`, `delete`, `publish`, `search`, `export` and `report` work on either engine.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            """
            The store: a SQLite file (default ./searchlight.sqlite) or a PostgreSQL URL \
            postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (the password may come from PGPASSWORD). \
            Also from \(StoreLocation.environmentVariable). A SQLite file is read without a memory map unless \
            \(SQLiteStore.memoryMapEnvironmentVariable)=BYTES says otherwise (faster for a busy server, but a file \
            cut short under the process then kills it).
            """, valueName: "path|postgres://…"))
    var value: String?

    func validate() throws {
        _ = try location
    }

    /// Where the store is, from `--store` or the environment.
    var location: StoreLocation {
        get throws(ValidationError) {
            do {
                return try StoreLocation(option: value, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// Opens (creating if needed) the SQLite store at `path`.
    ///
    /// - Throws: ``RuntimeError`` when the store cannot be opened.
    static func openSQLite(_ path: String) throws -> SQLiteStore {
        // An operator's choice for the processes it starts (Docs/benchmarks.md, "Index"); off unless given.
        let mapped =
            ProcessInfo.processInfo.environment[SQLiteStore.memoryMapEnvironmentVariable].flatMap { Int($0) } ?? 0
        do {
            return try SQLiteStore(path: path, memoryMapBytes: mapped)
        } catch {
            throw RuntimeError("cannot open the store \(error.path): \(error.message)")
        }
    }

    /// Opens (creating or migrating if needed) the store for the crawler, on either engine.
    ///
    /// - Throws: ``RuntimeError`` when the store cannot be opened or connected to.
    func openCrawlStore() async throws -> any CrawlStore {
        switch try location {
        case .sqlite(let path):
            return try Self.openSQLite(path)
        case .postgres(let location):
            return try await Self.openDatabase(location)
        }
    }

    /// Opens (creating or migrating if needed) the store for `import` and `delete`, on either engine.
    ///
    /// - Throws: ``RuntimeError`` when the store cannot be opened or connected to.
    func openDonationStore() async throws -> any DonationStore {
        switch try location {
        case .sqlite(let path):
            return try Self.openSQLite(path)
        case .postgres(let location):
            return try await Self.openDatabase(location)
        }
    }

    /// Runs `body` on the store's public index for `publish`, `search`, `export` and `report`, on either
    /// engine, then closes a PostgreSQL store's connections (also when `body` throws). A SQLite store must
    /// exist unless `creating` (reading commands never create an empty file).
    ///
    /// - Throws: ``RuntimeError`` when the store does not exist or cannot be opened or connected to, or what
    ///   `body` threw.
    func withPublicIndex<T>(creating: Bool = false, _ body: (any PublicIndexStore) async throws -> T) async throws -> T
    {
        let index: any PublicIndexStore
        switch try location {
        case .sqlite(let path):
            index = try creating ? Self.openSQLite(path) : Self.openExistingSQLite(path)
        case .postgres(let location): index = try await Self.openDatabase(location)
        }
        do {
            let result = try await body(index)
            await index.close()
            return result
        } catch {
            await index.close()
            throw error
        }
    }

    /// Closes a PostgreSQL store's connections (a SQLite store closes with its last reference).
    static func close(_ store: any Sendable) async {
        if let database = store as? PostgresStore { await database.close() }
    }

    /// Connects to the PostgreSQL store `location` names and migrates it.
    static func openDatabase(_ location: PostgresLocation) async throws -> PostgresStore {
        do {
            return try await PostgresStore.open(location)
        } catch {
            throw RuntimeError("cannot open the store \(error.path): \(error.message)")
        }
    }

    /// Opens the SQLite store at `path`, which must exist: reading commands never create an empty file.
    static func openExistingSQLite(_ path: String) throws -> SQLiteStore {
        guard FileManager.default.fileExists(atPath: path) else {
            throw RuntimeError("no store at \(path) (crawl, import or publish first, or give --store)")
        }
        return try openSQLite(path)
    }
}

/// A failure the command reports as a runtime failure (exit 3), with a clear message.
struct RuntimeError: Error, CustomStringConvertible {
    /// The message, printed after `searchlight: `.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Where apple-app-site-association files are fetched from.
struct UniversalLinkOptions: ParsableArguments {
    @Flag(
        help: """
            Also fetch apple-app-site-association over plain http when the site is http (local test \
            sites; Apple itself only fetches https).
            """)
    var plainHTTPAppSiteAssociation = false
}
