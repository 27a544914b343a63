import FixtureServer
import Foundation
import TestSupport
import Testing

@testable import Store

/// A store that cannot be reached fails within the connect timeout, with the URL (no password) and one line
/// that says why. The time limit catches a hang, as the other PostgreSQL suites' do; elapsed times are not
/// compared with tight bounds. In a whole-suite run the two threads of the cooperative pool can both be
/// busy with long synchronous tests for most of a minute before this suite's tasks get a turn.
@Suite("PostgreSQL connection errors", .timeLimit(.minutes(3)))
struct PostgresConnectionErrorTests {
    /// Opens `url` and returns the error's text and how long the attempt took.
    private func failure(opening url: String) async throws -> (message: String, seconds: Double) {
        guard case .postgres(let location) = try StoreLocation(parsing: url) else {
            throw TestFailure("\(url) is not a PostgreSQL location")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: StoreError.self) {
            await (try await PostgresStore.open(location)).close()
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let message = error.map { "\($0.path): \($0.message)" } ?? ""
        #expect(!message.contains("\n"), "\(message)")
        return (message, seconds)
    }

    @Test("a refused connection says so")
    func refused() async throws {
        let port = try PostgresCluster.freeLoopbackPort()
        let (message, _) = try await failure(opening: "postgres://u:secret@127.0.0.1:\(port)/db")
        #expect(message == "postgres://u@127.0.0.1:\(port)/db: connection refused")
    }

    @Test("a host name that does not resolve says so")
    func unknownHost() async throws {
        let (message, _) = try await failure(opening: "postgres://u@no-such-host.invalid/db")
        #expect(
            message == "postgres://u@no-such-host.invalid:5432/db: cannot resolve the host name 'no-such-host.invalid'")
    }

    @Test("a wrong password gives the server's reason, not the password")
    func wrongPassword() async throws {
        let cluster = try await PostgresCluster.sharedWithPassword()
        let database = try await cluster.makeDatabase()
        let url = "postgres://\(PostgresCluster.user):wrong-password@127.0.0.1:\(cluster.port)/\(database)"
        let (message, _) = try await failure(opening: url + "?sslmode=disable")
        #expect(
            message
                == "postgres://\(PostgresCluster.user)@127.0.0.1:\(cluster.port)/\(database)?sslmode=disable: "
                + "password authentication failed for user \"\(PostgresCluster.user)\"")
        #expect(!message.contains("wrong-password"))
    }

    @Test("no password for a server that asks for one says where to give it")
    func missingPassword() async throws {
        let cluster = try await PostgresCluster.sharedWithPassword()
        let database = try await cluster.makeDatabase()
        let (message, _) = try await failure(opening: cluster.url(database: database))
        #expect(message.hasSuffix(": the server asks for a password and none was given (in the URL or PGPASSWORD)"))
    }

    @Test("a database that does not exist says so")
    func missingDatabase() async throws {
        let cluster = try await PostgresCluster.shared()
        let (message, _) = try await failure(opening: cluster.url(database: "no_such_database"))
        #expect(message.hasSuffix(": database \"no_such_database\" does not exist"))
    }

    @Test("a server that never answers times out after connect_timeout")
    func silentServer() async throws {
        let listener = try SilentListener()
        let (message, seconds) = try await failure(
            opening: "postgres://u@127.0.0.1:\(listener.port)/db?sslmode=disable&connect_timeout=1")
        // The reason names the timeout, and the attempt took at least that long: it ended because of it.
        #expect(message.hasSuffix(": no answer within 1 s (connect_timeout)"), "\(message)")
        #expect(seconds >= 0.9)
    }
}

/// A socket on loopback that accepts connections (the kernel completes them) and never says anything.
final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw TestFailure("cannot listen on loopback: errno \(errno)")
        }
        self.descriptor = descriptor
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
