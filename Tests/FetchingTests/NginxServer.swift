import Foundation

/// nginx on 127.0.0.1 with TLS and HTTP/2 and a throwaway self-signed certificate: the
/// fixture server speaks HTTP/1.1 only, and HTTP/2 is what real sites offer.
///
/// Needs Debian's `nginx-light` (or `nginx`) and `openssl`; `Scripts/bootstrap.sh --test`
/// installs them. The access log records the connection serial number and protocol of
/// every request, so a test can count connections from the server's side.
final class NginxServer {
    static let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isAvailable: Bool { binary != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    let port: UInt16
    let directory: URL
    private let process: Process

    var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    init() throws {
        guard let binary = Self.binary else { throw POSIXError(.ENOENT) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "searchlight-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", directory.appendingPathComponent("key.pem").path,
                "-out", directory.appendingPathComponent("cert.pem").path,
            ])
        port = try Self.freePort()
        let dir = directory.path
        let configuration = """
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
        try configuration.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", dir, "-c", "\(dir)/nginx.conf", "-e", "\(dir)/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening()
    }

    /// Lines of the access log: connection serial, protocol, URI, status.
    func accessLog() throws -> [[String]] {
        let text = try String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)
        return text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    func stop() {
        if process.isRunning {
            // SIGTERM is nginx's fast shutdown; SIGKILL after two seconds so a test never hangs here.
            process.terminate()
            for _ in 0..<40 where process.isRunning { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Polls until a TCP connection succeeds, for at most five seconds.
    private func waitUntilListening() throws {
        for _ in 0..<100 {
            guard process.isRunning else { break }
            if Self.canConnect(port: port) { return }
            usleep(50_000)
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        stop()
        throw NginxError(message: "nginx did not start: \(log)")
    }

    struct NginxError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw NginxError(message: "\(executable) failed") }
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
