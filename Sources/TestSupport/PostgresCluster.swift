import Foundation
import Synchronization

/// A throw-away PostgreSQL cluster for tests: `initdb` into a temporary folder, the server on a free loopback
/// port, one database per test, and the folder removed once the cluster stops.
///
/// CI gets PostgreSQL from `Scripts/bootstrap.sh --test` (Debian's `postgresql`); without it, starting a
/// cluster throws ``Failure/notInstalled``, so a test that needs one fails and says why, never skips. As
/// root (CI, this machine) the server runs as the `postgres` user, which owns the folder: PostgreSQL refuses
/// to run as root.
///
/// Readiness is `pg_ctl start -w` (it returns once the server accepts connections), no sleeps. The cluster
/// stops when ``stop()`` is called or, for the shared clusters, when the test process ends in any way
/// (``ClusterWatchdog``). The server trades durability for speed (`fsync=off`): its data is thrown away.
package final class PostgresCluster: Sendable {
    /// How clients authenticate.
    package enum Authentication: Sendable, Equatable {
        /// Any client on loopback is let in as any user.
        case trust
        /// SCRAM-SHA-256 with this password for ``user``.
        case password(String)
    }

    /// Why a cluster could not be started or used.
    package enum Failure: Error, CustomStringConvertible {
        /// No PostgreSQL server binaries were found.
        case notInstalled
        /// Running as root, but there is no `postgres` user to run the server as.
        case noPostgresUser
        /// A PostgreSQL program failed: its name, exit status and what it printed.
        case commandFailed(String, status: Int32, output: String)
        /// A system call failed.
        case system(String, errno: Int32)

        package var description: String {
            switch self {
            case .notInstalled:
                "PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb nor initdb on PATH "
                    + "(Scripts/bootstrap.sh --test installs Debian's postgresql)"
            case .noPostgresUser:
                "running as root, but there is no 'postgres' user to run the PostgreSQL server as"
            case .commandFailed(let command, let status, let output):
                "\(command) exited with \(status): \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
            case .system(let call, let code):
                "\(call) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// The superuser every cluster is created with.
    package static let user = "searchlight"
    /// The password of ``sharedWithPassword()``'s cluster.
    package static let testPassword = "correct horse battery staple"

    /// The folder holding the data directory, the server's log and its Unix socket.
    package let folder: URL
    /// The loopback TCP port the server listens on (on 127.0.0.1).
    package let port: Int
    /// How clients authenticate.
    package let authentication: Authentication
    /// How long `initdb` and `pg_ctl start` took.
    package let startupDuration: Duration
    /// The PostgreSQL programs.
    let programs: PostgresPrograms
    /// Stops the server and removes ``folder`` when told to, or when this process ends.
    private let watchdog: ClusterWatchdog
    /// Numbers the databases ``makeDatabase(_:)`` creates.
    private let databaseCounter = Atomic<Int>(0)
    /// The templates new databases are copied from (`PostgresCluster+Databases.swift`), once made.
    let maker = Mutex<Task<DatabaseMaker, any Error>?>(nil)

    private init(
        folder: URL, port: Int, authentication: Authentication, startupDuration: Duration,
        programs: PostgresPrograms, watchdog: ClusterWatchdog
    ) {
        self.folder = folder
        self.port = port
        self.authentication = authentication
        self.startupDuration = startupDuration
        self.programs = programs
        self.watchdog = watchdog
    }

    /// The cluster this test process shares (trust authentication), started by the first test that asks.
    package static func shared() async throws -> PostgresCluster {
        try await sharedTrust.value
    }

    /// The cluster this test process shares that requires ``testPassword`` (SCRAM-SHA-256).
    package static func sharedWithPassword() async throws -> PostgresCluster {
        try await sharedPassword.value
    }

    private static let sharedTrust = Task { try await start(authentication: .trust) }
    private static let sharedPassword = Task { try await start(authentication: .password(testPassword)) }

    /// Creates and starts a new cluster. Call ``stop()`` when done (it also stops when the process ends).
    ///
    /// - Throws: ``Failure`` when PostgreSQL is missing or a step fails, with the step's output.
    package static func start(authentication: Authentication = .trust) async throws -> PostgresCluster {
        try await PostgresPrograms.onThread { try startNow(authentication: authentication) }
    }

    /// ``start(authentication:)``, blocking the calling thread.
    private static func startNow(authentication: Authentication) throws -> PostgresCluster {
        let programs = try PostgresPrograms.locate()
        let clock = ContinuousClock()
        let started = clock.now
        let folder = try programs.makeClusterFolder()
        // From here on the folder is removed however this ends, the test process's end included.
        let watchdog = try ClusterWatchdog(programs: programs, folder: folder)
        do {
            try programs.initialize(folder: folder, authentication: authentication)
            var lastFailure: (any Error)?
            // Another process may take the free port between the probe and the server's bind: try another.
            for _ in 0..<5 {
                let port = try PostgresPrograms.freeLoopbackPort()
                do {
                    try programs.startServer(folder: folder, port: port)
                } catch {
                    lastFailure = error
                    guard programs.serverLogMentionsPortInUse(folder: folder) else { throw error }
                    continue
                }
                return PostgresCluster(
                    folder: folder, port: port, authentication: authentication,
                    startupDuration: clock.now - started, programs: programs, watchdog: watchdog)
            }
            throw lastFailure ?? Failure.system("bind", errno: EADDRINUSE)
        } catch {
            watchdog.release()
            throw error
        }
    }

    /// The password clients must give, if any.
    package var password: String? {
        if case .password(let password) = authentication { return password }
        return nil
    }

    /// The next number for a database's name.
    func nextDatabaseNumber() -> Int {
        databaseCounter.add(1, ordering: .relaxed).newValue
    }

    /// Creates the empty database `name` with `createdb`.
    func createDatabaseWithProgram(_ name: String) async throws {
        try await PostgresPrograms.onThread { [programs, port, password, folder] in
            try programs.createDatabase(name, port: port, password: password, folder: folder)
        }
    }

    /// Runs one SQL command in `database` with `psql` and returns its output (`-At`: a one-value query prints
    /// the value and a line feed), for tests that look into a store without a driver of their own.
    package func psql(_ sql: String, database: String) async throws -> String {
        try await PostgresPrograms.onThread { [programs, port, password, folder] in
            try programs.psql(sql, database: database, port: port, password: password, folder: folder)
        }
    }

    /// A `postgres://` URL of `database` on this cluster, for ``user``, with ``password`` when asked.
    package func url(database: String, includingPassword: Bool = false) -> String {
        var credentials = Self.user
        if includingPassword, let password,
            let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
        {
            credentials += ":" + encoded
        }
        return "postgres://\(credentials)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// A TCP port on 127.0.0.1 that nothing listens on at the moment of the call.
    package static func freeLoopbackPort() throws -> Int {
        try PostgresPrograms.freeLoopbackPort()
    }

    /// Stops the server (`pg_ctl stop -m fast`) and removes the folder; returns once both are done.
    package func stop() async {
        if let task = maker.withLock({ $0 }), let made = try? await task.value { await made.connection.close() }
        await watchdog.fire()
    }
}
