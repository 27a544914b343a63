#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deliberately dumb HTTP/1.1 client over a blocking POSIX socket, so a server is tested without libcurl or
/// URLSession: it sends exactly the bytes a test writes and reports exactly what came back (the fixture
/// server's tests, and `serve`'s for HTTP/1.0, trickled bodies and clients that never read).
///
/// Every receive has a timeout (`SO_RCVTIMEO`), so a server bug fails a test instead of hanging the run. Its
/// calls block: run them on a thread of their own, not on Swift's cooperative pool.
package final class RawHTTPConnection {
    /// A parsed response.
    package struct Response {
        /// The status line's version (`HTTP/1.1`).
        package var version: String
        /// The status code.
        package var status: Int
        /// Header fields in order.
        package var headers: [(name: String, value: String)]
        /// The body (de-chunked when the response was chunked).
        package var body: [UInt8]

        /// The first value of header `name`, case-insensitively.
        package func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text.
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Failures, with enough text to explain a failed expectation.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// How a read-until-close ended.
    package enum Ending: Equatable {
        /// FIN: the server closed normally.
        case closed
        /// RST: the server reset the connection.
        case reset
        /// Nothing arrived within the timeout.
        case timedOut
    }

    private let fd: Int32
    /// Received bytes not yet consumed by a parsed response.
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; receives give up after `timeoutSeconds`. With `receiveBufferBytes`, the
    /// socket's receive buffer is that small, so a client that does not read holds little in its kernel.
    package init(port: UInt16, timeoutSeconds: Int = 5, receiveBufferBytes: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            // Not closed here: every stored property is set, so the throw runs `deinit`, which closes it. Closing
            // it here too closed whatever descriptor the number had been given to meanwhile (another test's
            // server's stop pipe, whose stop then never woke its threads).
            throw Failure(description: "connect() failed: errno \(errno)")
        }
    }

    deinit {
        if fd >= 0 { _ = close(fd) }
    }

    /// Sends `text` as UTF-8.
    package func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Sends raw bytes.
    package func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends a minimal request for `path`; `extraHeaders` are raw `Name: value` lines.
    package func sendRequest(
        _ path: String, method: String = "GET", version: String = "HTTP/1.1", extraHeaders: [String] = []
    ) throws {
        let lines = ["\(method) \(path) \(version)", "Host: 127.0.0.1"] + extraHeaders
        try write(lines.joined(separator: "\r\n") + "\r\n\r\n")
    }

    /// Whether something (bytes, or the end of the connection) can be read within `milliseconds`.
    package func isReadable(within milliseconds: Int32) -> Bool {
        if !buffer.isEmpty { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Reads one response; `forHead` says the request was HEAD, whose response has no body whatever it declares.
    package func readResponse(forHead: Bool = false) throws -> Response {
        let headEnd = try fill { Self.endOfHead($0) }
        // "\r\n" is a single Character in Swift, so this splits at CRLF.
        let lines = String(decoding: buffer[..<headEnd], as: UTF8.self).split(separator: "\r\n").map(String.init)
        buffer.removeFirst(headEnd + 4)
        let statusLine = lines.first ?? ""
        let statusParts = statusLine.split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(statusLine)")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return (String(line[..<colon]), String(value))
        }
        var response = Response(version: String(statusParts[0]), status: status, headers: headers, body: [])
        if forHead || status == 304 || status == 204 {
            return response
        }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunkedBody()
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            _ = try fill { $0.count >= length ? length : nil }
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            response.body = try readUntilClose().bytes
        }
        return response
    }

    /// Reads everything until the server closes the connection, reporting how it ended.
    package func readUntilClose() throws -> (bytes: [UInt8], ending: Ending) {
        while true {
            switch receive() {
            case .some(let chunk) where !chunk.isEmpty:
                buffer += chunk
            case .some:
                defer { buffer = [] }
                return (buffer, .closed)
            case .none where errno == ECONNRESET:
                defer { buffer = [] }
                return (buffer, .reset)
            case .none:
                defer { buffer = [] }
                return (buffer, .timedOut)
            }
        }
    }

    /// Receives until `ready` returns a value for the buffered bytes.
    private func fill<T>(until ready: ([UInt8]) -> T?) throws -> T {
        while true {
            if let value = ready(buffer) {
                return value
            }
            guard let chunk = receive(), !chunk.isEmpty else {
                throw Failure(description: "connection ended (errno \(errno)) after \(buffer.count) bytes")
            }
            buffer += chunk
        }
    }

    /// One `recv`: bytes, an empty array at EOF, or nil on error or timeout (errno tells which).
    private func receive() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count < 0 ? nil : Array(chunk[..<count])
    }

    /// Decodes a chunked body from the stream.
    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try fill { bytes in bytes.firstRange(of: [13, 10]).map(\.lowerBound) }
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self)
            guard let size = Int(sizeText, radix: 16) else { throw Failure(description: "bad chunk size \(sizeText)") }
            buffer.removeFirst(lineEnd + 2)
            _ = try fill { $0.count >= size + 2 ? true : nil }
            body += buffer[..<size]
            buffer.removeFirst(size + 2)
            if size == 0 {
                return body
            }
        }
    }

    /// The index of the blank line ending a response head.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        bytes.firstRange(of: [13, 10, 13, 10]).map(\.lowerBound)
    }
}
