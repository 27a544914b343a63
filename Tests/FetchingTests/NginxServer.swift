import FixtureServer
import Foundation
import TestSupport

/// nginx on 127.0.0.1 with TLS and HTTP/2 and a throwaway self-signed certificate: the
/// fixture server speaks HTTP/1.1 only, and HTTP/2 is what real sites offer.
///
/// Needs Debian's `nginx-light` (or `nginx`) and `openssl`; `Scripts/bootstrap.sh --test`
/// installs them. The access log records the connection serial number and protocol of
/// every request, so a test can count connections from the server's side.
///
/// Nothing here blocks a thread of the cooperative pool: processes are started with `posix_spawn` and
/// waited for on threads of their own (`RunningChild`, not Foundation's `Process`, whose `run()` now and
/// then crashes on this toolchain), and readiness is polled with `Task.sleep`.
final class NginxServer: Sendable {
    static let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isAvailable: Bool { binary != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    let port: UInt16
    let directory: URL
    private let process: RunningChild

    var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    private init(port: UInt16, directory: URL, process: RunningChild) {
        self.port = port
        self.directory = directory
        self.process = process
    }

    /// Makes a certificate, starts nginx and returns once it accepts connections.
    static func start() async throws -> NginxServer {
        guard let binary else { throw NginxError(message: "nginx is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "searchlight-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let dir = directory.path
        let status = try await run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", "\(dir)/key.pem", "-out", "\(dir)/cert.pem",
            ])
        guard status == 0 else { throw NginxError(message: "openssl could not make a certificate") }
        let port = try freePort()
        try configuration(directory: dir, port: port)
            .write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = try RunningChild(
            [binary, "-p", dir, "-c", "\(dir)/nginx.conf", "-e", "\(dir)/error.log"], directory: directory)
        let server = NginxServer(port: port, directory: directory, process: process)
        for _ in 0..<100 where process.isRunning {
            if canConnect(port: port) { return server }
            try await Task.sleep(for: .milliseconds(50))
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        await server.stop()
        throw NginxError(message: "nginx did not start: \(log)")
    }

    /// Runs `body` with a started server and stops it afterwards, also when `body` throws.
    static func with<Result>(_ body: (NginxServer) async throws -> Result) async throws -> Result {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func configuration(directory dir: String, port: UInt16) -> String {
        """
        daemon off;
        worker_processes 1;
        error_log \(dir)/error.log warn;
        pid \(dir)/nginx.pid;
        events { worker_connections 512; }
        http {
            log_format probe '$connection $server_protocol $request_uri $status';
            access_log \(dir)/access.log probe;
            client_body_temp_path \(dir)/body;
            proxy_temp_path \(dir)/proxy;
            fastcgi_temp_path \(dir)/fastcgi;
            uwsgi_temp_path \(dir)/uwsgi;
            scgi_temp_path \(dir)/scgi;
            server {
                listen 127.0.0.1:\(port) ssl http2;
                ssl_certificate \(dir)/cert.pem;
                ssl_certificate_key \(dir)/key.pem;
                location / { return 200 "ok $request_uri\\n"; }
            }
        }
        """
    }

    /// Lines of the access log: connection serial, protocol, URI, status.
    func accessLog() throws -> [[String]] {
        let text = try String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)
        return text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    /// Stops nginx (SIGTERM, its fast shutdown; SIGKILL after two seconds) and removes its folder.
    func stop() async {
        if process.isRunning {
            process.send(SIGTERM)
            for _ in 0..<40 where process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
            process.send(SIGKILL)
            for _ in 0..<40 where process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    struct NginxError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Runs a program to its end and returns its exit status.
    private static func run(_ executable: URL, _ arguments: [String]) async throws -> Int32 {
        let child = try RunningChild(
            [executable.path] + arguments, directory: FileManager.default.temporaryDirectory)
        return await child.waitForExit()
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    private static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func canConnect(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
