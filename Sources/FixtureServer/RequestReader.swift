import Foundation

/// Reads HTTP/1.1 requests one after another from a connection, keeping bytes that arrive early (pipelining) for
/// the next request.
///
/// Deliberately strict and small: origin-form targets only, `Content-Length` bodies only, no obsolete line folding.
/// Anything else is reported as malformed so the connection answers 400 and closes, and no input can crash it.
struct RequestReader {
    /// A request head plus its body.
    struct Request {
        /// The method token, for example `"GET"`.
        var method: String
        /// The origin-form target, including the query.
        var target: String
        /// `"HTTP/1.0"` or `"HTTP/1.1"`.
        var version: String
        /// Header fields in the order received.
        var headers: [(name: String, value: String)]
        /// The body, as announced by `Content-Length`.
        var body: [UInt8] = []

        /// The first value of header `name`, compared case-insensitively.
        func header(_ name: String) -> String? {
            let wanted = name.lowercased()
            return headers.first { $0.name.lowercased() == wanted }?.value
        }

        /// Whether the client asked for the connection to close after this exchange (HTTP/1.0 always does here).
        var wantsClose: Bool {
            let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return version == "HTTP/1.0" || tokens.contains("close")
        }
    }

    /// What one call to ``next()`` produced.
    enum Outcome {
        /// A complete request.
        case request(Request)
        /// Input that is not an acceptable HTTP/1.x request; answer `status` and close.
        case malformed(status: Int, reason: String)
        /// The client closed the connection between requests (or in the middle of one).
        case closed
        /// The server is stopping.
        case stopped
    }

    /// The largest request head accepted; larger ones get 431.
    static let maximumHeadSize = 64 * 1024
    /// The largest request body accepted; larger ones get 413.
    static let maximumBodySize = 8 * 1024 * 1024

    /// The connection to read from.
    let socket: ClientSocket
    /// Bytes received but not yet consumed.
    private var buffer: [UInt8] = []

    /// Creates a reader for `socket`.
    init(socket: ClientSocket) {
        self.socket = socket
    }

    /// Reads the next complete request.
    mutating func next() -> Outcome {
        var headEnd: Int?
        while true {
            // RFC 9112 §2.2: a server should ignore empty lines received before the request line.
            while buffer.starts(with: [13, 10]) {
                buffer.removeFirst(2)
            }
            headEnd = Self.endOfHead(in: buffer)
            if headEnd != nil {
                break
            }
            if buffer.count > Self.maximumHeadSize {
                return .malformed(status: 431, reason: "request head larger than \(Self.maximumHeadSize) bytes")
            }
            if let ending = fill() {
                return ending
            }
        }
        guard let headEnd else { return .closed }
        let headBytes = buffer[..<headEnd]
        buffer.removeFirst(headEnd + 4)
        var request: Request
        switch RequestHeadParser.parse(headBytes) {
        case .success(let parsed): request = parsed
        case .failure(let failure): return .malformed(status: 400, reason: failure.reason)
        }
        if request.header("Transfer-Encoding") != nil {
            return .malformed(status: 501, reason: "request bodies with Transfer-Encoding are not supported")
        }
        guard let lengthText = request.header("Content-Length") else {
            return .request(request)
        }
        guard let length = Int(lengthText), length >= 0, lengthText.allSatisfy(\.isASCII) else {
            return .malformed(status: 400, reason: "invalid Content-Length")
        }
        guard length <= Self.maximumBodySize else {
            return .malformed(status: 413, reason: "request body larger than \(Self.maximumBodySize) bytes")
        }
        while buffer.count < length {
            if let ending = fill() {
                return ending
            }
        }
        request.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return .request(request)
    }

    /// Appends the next bytes from the socket to the buffer; returns an outcome only when reading has to end.
    private mutating func fill() -> Outcome? {
        switch socket.read() {
        case .bytes(let bytes):
            buffer.append(contentsOf: bytes)
            return nil
        case .closed:
            return .closed
        case .stopped:
            return .stopped
        }
    }

    /// The index of the `CRLF CRLF` that ends the head, if it has arrived.
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
