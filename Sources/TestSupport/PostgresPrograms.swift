import Foundation

/// The PostgreSQL programs a test cluster runs (`initdb`, `pg_ctl`, `createdb`), and how: directly, or as the
/// `postgres` user through `runuser` when the tests run as root.
///
/// The methods block until their program ends, so callers run them on a thread of their own
/// (``onThread(_:)``), never on the cooperative pool: a test process's two pool threads are busy with hundreds
/// of tests, and a step that blocked one of them would wait behind them all. Output goes to a file rather
/// than a pipe, so nothing needs draining.
struct PostgresPrograms: Sendable {
    /// The folder with `initdb`, `pg_ctl` and `createdb`.
    let binaries: URL
    /// How to run the server's programs as `postgres`, when this process is root.
    let serverUser: ServerUser?

    /// The `postgres` account and the `runuser` program that switches to it.
    struct ServerUser: Sendable {
        var runuser: String
        var uid: uid_t
        var gid: gid_t
    }

    /// Finds the newest `/usr/lib/postgresql/VERSION/bin` (Debian's layout), else `initdb` on `PATH`.
    ///
    /// - Parameters:
    ///   - debian: where Debian installs PostgreSQL's versions.
    ///   - path: the folders searched next, as in `PATH`.
    /// - Throws: ``PostgresCluster/Failure/notInstalled`` or ``PostgresCluster/Failure/noPostgresUser``.
    static func locate(
        debian: String = "/usr/lib/postgresql", path: String = ProcessInfo.processInfo.environment["PATH"] ?? ""
    ) throws(PostgresCluster.Failure) -> PostgresPrograms {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? []
        let candidates =
            versions.sorted { (Double($0) ?? 0) > (Double($1) ?? 0) }.map { "\(debian)/\($0)/bin" }
            + path.split(separator: ":").map(String.init)
        guard let folder = candidates.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") })
        else { throw .notInstalled }
        guard geteuid() == 0 else { return PostgresPrograms(binaries: URL(fileURLWithPath: folder), serverUser: nil) }
        guard let account = getpwnam("postgres") else { throw .noPostgresUser }
        let runuser =
            ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            } ?? "runuser"
        return PostgresPrograms(
            binaries: URL(fileURLWithPath: folder),
            serverUser: ServerUser(runuser: runuser, uid: account.pointee.pw_uid, gid: account.pointee.pw_gid))
    }

    /// A new empty folder for a cluster, private to the user the server runs as.
    func makeClusterFolder() throws(PostgresCluster.Failure) -> URL {
        // Short: the server's Unix socket (`FOLDER/.s.PGSQL.PORT`) must fit in 107 bytes.
        let name = "slpg-\(UUID().uuidString.prefix(8).lowercased())"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        guard mkdir(folder.path, 0o700) == 0 else { throw .system("mkdir \(folder.path)", errno: errno) }
        if let serverUser, chown(folder.path, serverUser.uid, serverUser.gid) != 0 {
            throw .system("chown \(folder.path)", errno: errno)
        }
        return folder
    }

    /// The data directory inside a cluster's folder.
    static func dataDirectory(_ folder: URL) -> String { folder.appendingPathComponent("data").path }

    /// `initdb` with ``PostgresCluster/user`` as superuser, UTF-8, and the given authentication for every
    /// connection.
    func initialize(folder: URL, authentication: PostgresCluster.Authentication) throws {
        var arguments = [
            "-D", Self.dataDirectory(folder), "-U", PostgresCluster.user, "-E", "UTF8", "--locale=C", "--no-sync",
        ]
        switch authentication {
        case .trust:
            arguments += ["-A", "trust"]
        case .password(let password):
            let file = folder.appendingPathComponent("password")
            guard FileManager.default.createFile(atPath: file.path, contents: Data(password.utf8)) else {
                throw PostgresCluster.Failure.system("create \(file.path)", errno: errno)
            }
            if let serverUser { _ = chown(file.path, serverUser.uid, serverUser.gid) }
            arguments += ["-A", "scram-sha-256", "--pwfile=\(file.path)"]
        }
        try run("initdb", arguments, asServer: true, folder: folder)
    }

    /// `pg_ctl start -w` on 127.0.0.1:`port`, the Unix socket in the folder; returns once the server
    /// accepts connections.
    func startServer(folder: URL, port: Int) throws {
        let options = [
            "-c listen_addresses=127.0.0.1", "-p \(port)", "-k '\(folder.path)'", "-c max_connections=200",
            "-c fsync=off", "-c full_page_writes=off", "-c synchronous_commit=off",
        ]
        try run(
            "pg_ctl",
            [
                "-D", Self.dataDirectory(folder), "-l", serverLog(folder).path, "-o", options.joined(separator: " "),
                "-w", "-t", "60", "start",
            ], asServer: true, folder: folder)
    }

    /// `pg_ctl stop -m fast -w`, as the command line the watchdog runs.
    func stopCommand(folder: URL) -> [String] {
        let command = [binaries.appendingPathComponent("pg_ctl").path, "-D", Self.dataDirectory(folder)]
        let stop = command + ["-m", "fast", "-w", "stop"]
        guard let serverUser else { return stop }
        return [serverUser.runuser, "-u", "postgres", "--"] + stop
    }

    /// `createdb NAME` over TCP as ``PostgresCluster/user``.
    func createDatabase(_ name: String, port: Int, password: String?, folder: URL) throws {
        try run(
            "createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", PostgresCluster.user, "-w", name],
            asServer: false, environment: password.map { ["PGPASSWORD": $0] } ?? [:], folder: folder)
    }

    /// Runs one SQL command with `psql` and returns what it printed: unaligned, tuples only (`-At`), so a
    /// one-value query prints just the value.
    func psql(_ sql: String, database: String, port: Int, password: String?, folder: URL) throws -> String {
        try run(
            "psql",
            [
                "-h", "127.0.0.1", "-p", "\(port)", "-U", PostgresCluster.user, "-w", "-X", "-At",
                "-v", "ON_ERROR_STOP=1", "-c", sql, database,
            ],
            asServer: false, environment: password.map { ["PGPASSWORD": $0] } ?? [:], folder: folder)
    }

    /// The server's log file.
    func serverLog(_ folder: URL) -> URL { folder.appendingPathComponent("server.log") }

    /// Whether the server's log says its port was taken.
    func serverLogMentionsPortInUse(folder: URL) -> Bool {
        let log = (try? String(contentsOf: serverLog(folder), encoding: .utf8)) ?? ""
        return log.contains("could not bind") || log.contains("Address already in use")
    }

    /// Runs a PostgreSQL program to its end; its output goes to a log file in the folder, quoted in the
    /// error when it fails.
    @discardableResult
    private func run(
        _ program: String, _ arguments: [String], asServer: Bool, environment: [String: String] = [:],
        folder: URL
    ) throws -> String {
        let log = folder.appendingPathComponent("\(program)-\(UUID().uuidString.prefix(8)).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw PostgresCluster.Failure.system("create \(log.path)", errno: errno)
        }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let path = binaries.appendingPathComponent(program).path
        var command = [path] + arguments
        if asServer, let serverUser { command = [serverUser.runuser, "-u", "postgres", "--"] + command }
        // The server user may not be able to enter the test's working directory: the program runs in `folder`.
        let status: Int32
        do {
            status = try ChildProcess.run(
                command, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                directory: folder, output: handle)
        } catch {
            throw PostgresCluster.Failure.system(error.call, errno: error.code)
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let serverOutput = program == "pg_ctl" ? (try? String(contentsOf: serverLog(folder), encoding: .utf8)) : nil
            throw PostgresCluster.Failure.commandFailed(
                program, status: status, output: String((output + (serverOutput ?? "")).suffix(4000)))
        }
        try? FileManager.default.removeItem(at: log)
        return output
    }

    /// Runs `body`, which blocks, on a new thread, and returns its result.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// A TCP port on 127.0.0.1 that nothing listens on at the moment of the call (the kernel's pick for
    /// port 0, released again).
    static func freeLoopbackPort() throws(PostgresCluster.Failure) -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw .system("socket", errno: errno) }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) }
        }
        guard bound == 0 else { throw .system("bind", errno: errno) }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        guard named == 0 else { throw .system("getsockname", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
