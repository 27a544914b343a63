/// A response's status line and header fields, serialized exactly as given, in order.
///
/// The server writes heads itself (rather than through an HTTP library) because several behaviours must send
/// headers that lie about the body, or send them long before the body.
struct ResponseHead {
    /// The status code, any three-digit number.
    var status: Int
    /// Header fields in the order they are sent.
    var headers: [(name: String, value: String)]

    /// Creates a head with `status` and `headers`.
    init(status: Int, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = headers
    }

    /// Whether a header called `name` (case-insensitive) is present.
    func has(_ name: String) -> Bool {
        let wanted = name.lowercased()
        return headers.contains { $0.name.lowercased() == wanted }
    }

    /// Appends a header field.
    mutating func add(_ name: String, _ value: String) {
        headers.append((name, value))
    }

    /// Whether responses with this status never carry a body (RFC 9110 §6.4.1): 1xx, 204 and 304.
    var forbidsBody: Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }

    /// The bytes to send: status line, header lines, and the empty line.
    var bytes: [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(for: status))\r\n"
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The conventional reason phrase for `status`; clients ignore it, but it makes captured traffic readable.
    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 418: "I'm a teapot"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
