import FixtureServer
import Foundation
import TestSupport
import Testing

/// `--store postgres://…` and `SEARCHLIGHT_STORE` through the real executable: every stateful command
/// connects and migrates, and failures to connect are one line with exit 3.
@Suite("searchlight with a PostgreSQL store", .timeLimit(.minutes(2)))
struct PostgresStoreCommandTests {
    /// Every command that opens the store, with arguments that get it as far as opening it.
    static let commands: [[String]] = [
        ["crawl"], ["import", "-"], ["publish"], ["search", "lemon"], ["report"], ["export"],
        ["delete", "--all", "--bundle", "com.example.app"],
    ]

    @Test("a refused connection is one line and exit 3", arguments: commands)
    func refused(command: [String]) async throws {
        let port = try PostgresCluster.freeLoopbackPort()
        let outcome = try await CommandRunner.run(
            command + ["--store", "postgres://u:secret@127.0.0.1:\(port)/db"], standardInput: "")
        #expect(outcome.status == 3)
        #expect(
            outcome.standardError
                == "searchlight: cannot open the store postgres://u@127.0.0.1:\(port)/db: connection refused\n")
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test("a host name that does not resolve is one line and exit 3")
    func unknownHost() async throws {
        let outcome = try await CommandRunner.run(["publish", "--store", "postgresql://u@no-such-host.invalid/db"])
        #expect(outcome.status == 3)
        #expect(
            outcome.standardError
                == "searchlight: cannot open the store postgres://u@no-such-host.invalid:5432/db: "
                + "cannot resolve the host name 'no-such-host.invalid'\n")
    }

    @Test("wrong credentials are one line and exit 3, without the password")
    func wrongCredentials() async throws {
        let cluster = try await PostgresCluster.sharedWithPassword()
        let database = try await cluster.makeDatabase()
        let base = "postgres://\(PostgresCluster.user)@127.0.0.1:\(cluster.port)/\(database)"
        let wrong = try await CommandRunner.run(
            ["search", "lemon", "--store", base], environment: ["PGPASSWORD": "not-the-password"])
        #expect(wrong.status == 3)
        #expect(
            wrong.standardError
                == "searchlight: cannot open the store \(base): "
                + "password authentication failed for user \"\(PostgresCluster.user)\"\n")
        #expect(!wrong.standardError.contains("not-the-password"))
        // Nothing was created in a store nobody could log in to.
        #expect(
            try await cluster.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database)
                == "0\n")
    }

    @Test("every command runs on a store that answers, migrating it first", arguments: commands)
    func everyCommandRuns(command: [String]) async throws {
        let cluster = try await PostgresCluster.shared()
        let database = try await cluster.makeDatabase()
        let outcome = try await CommandRunner.run(
            command + ["--store", cluster.url(database: database)], standardInput: "")
        #expect(!outcome.standardError.contains("not supported"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("cannot open the store"), "\(outcome.standardError)")
        let applied = try await cluster.psql(
            "SELECT identifier FROM searchlight_migration ORDER BY identifier", database: database)
        #expect(
            applied
                == "v1-schema\nv2-shared-crawl\nv3-search\nv4-api-token\nv5-freshness\nv6-whatwg-crawl-url\nv7-refresh-indexes\n"
                + "v8-index-generations\nv9-page-rendered\n"
        )
    }

    @Test("the password may come from PGPASSWORD or the URL, and the store may come from SEARCHLIGHT_STORE")
    func passwordSources() async throws {
        let cluster = try await PostgresCluster.sharedWithPassword()
        let database = try await cluster.makeDatabase()
        let fromEnvironment = try await CommandRunner.run(
            ["report"],
            environment: [
                "SEARCHLIGHT_STORE": cluster.url(database: database), "PGPASSWORD": PostgresCluster.testPassword,
            ])
        #expect(
            fromEnvironment.standardError.hasSuffix("nothing was published yet: run `searchlight publish`\n"),
            "\(fromEnvironment.standardError)")
        let inURL = try await CommandRunner.run(
            ["export", "--store", cluster.url(database: database, includingPassword: true)])
        #expect(inURL.status == 0, "\(inURL.standardError)")
        #expect(inURL.standardError == "exported 0 items\n")
    }

    @Test("processes that open a new PostgreSQL store together migrate it once")
    func concurrentFirstOpen() async throws {
        let cluster = try await PostgresCluster.shared()
        let database = try await cluster.makeDatabase()
        // Commands that only read once the store is open: none of them has anything to do on an empty store.
        let commands = [["search", "lemon"], ["export"], ["search", "--query", "rating > 1"], ["export"]]
        let outcomes = try await withThrowingTaskGroup(of: (Int32, CommandRunner.Outcome).self) { group in
            for command in commands {
                group.addTask {
                    let outcome = try await CommandRunner.run(
                        command + ["--store", cluster.url(database: database)], standardInput: "")
                    return (command[0] == "search" ? 1 : 0, outcome)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (status, outcome) in outcomes {
            #expect(outcome.status == status, "\(outcome.standardError)")
            #expect(!outcome.standardError.contains("cannot open the store"), "\(outcome.standardError)")
        }
        #expect(try await cluster.psql("SELECT count(*) FROM searchlight_migration", database: database) == "9\n")
        #expect(try await cluster.psql("SELECT count(*) FROM setting WHERE name = 'salt'", database: database) == "1\n")
    }

    @Test(
        "a malformed store URL is a usage error naming the problem",
        arguments: [
            ("postgres://127.0.0.1/db", "--store: the PostgreSQL URL names no user"),
            ("postgres://u@h:99999/db", "--store: the PostgreSQL URL's port '99999' is not a number from 1 to 65535"),
            ("postgres://u@h/db?sslmode=maybe", "--store: the PostgreSQL URL's sslmode=maybe is not valid"),
            ("mysql://u@h/db", "--store: 'mysql://' is not a store"),
        ])
    func malformed(url: String, message: String) async throws {
        let outcome = try await CommandRunner.run(["publish", "--store", url])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }
}

/// `SEARCHLIGHT_STORE` with a path: the SQLite engine, already.
@Suite("SEARCHLIGHT_STORE")
struct StoreEnvironmentTests {
    @Test("SEARCHLIGHT_STORE selects the SQLite file, and --store wins over it")
    func selectsTheFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fromEnvironment = folder.appendingPathComponent("env.sqlite").path
        let fromOption = folder.appendingPathComponent("option.sqlite").path
        let fileManager = FileManager.default

        let first = try await CommandRunner.run(
            ["publish"], environment: ["SEARCHLIGHT_STORE": fromEnvironment], directory: folder)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(fileManager.fileExists(atPath: fromEnvironment))
        #expect(!fileManager.fileExists(atPath: folder.appendingPathComponent("searchlight.sqlite").path))

        let second = try await CommandRunner.run(
            ["publish", "--store", fromOption], environment: ["SEARCHLIGHT_STORE": "postgres://u@127.0.0.1:1/x"],
            directory: folder)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(fileManager.fileExists(atPath: fromOption))

        let missing = try await CommandRunner.run(
            ["search", "lemon"], environment: ["SEARCHLIGHT_STORE": folder.appendingPathComponent("none.sqlite").path],
            directory: folder)
        #expect(missing.status == 3)
        #expect(missing.standardError.contains("no store at \(folder.path)/none.sqlite"), "\(missing.standardError)")

        let neither = try await CommandRunner.run(["publish"], directory: folder)
        #expect(neither.status == 0, "\(neither.standardError)")
        #expect(fileManager.fileExists(atPath: folder.appendingPathComponent("searchlight.sqlite").path))
    }
}
