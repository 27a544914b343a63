/// Parses an HTTP/1.x request head (request line and header fields, without the final empty line).
///
/// Follows RFC 9112 closely enough for a test server: a token method, an origin-form target, `HTTP/1.0` or
/// `HTTP/1.1`, and `name: value` fields with token names. Everything else is rejected with a reason, never trapped.
enum RequestHeadParser {
    /// Why a head was rejected.
    struct Failure: Error {
        /// A short description, sent back in the 400 body to help whoever wrote the client.
        let reason: String
    }

    /// Parses `head`, the bytes before the `CRLF CRLF`.
    static func parse(_ head: ArraySlice<UInt8>) -> Result<RequestReader.Request, Failure> {
        let lines = split(head)
        guard let requestLine = lines.first else {
            return .failure(Failure(reason: "empty request"))
        }
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .failure(Failure(reason: "request line must be METHOD SP TARGET SP VERSION"))
        }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            return .failure(Failure(reason: "invalid method"))
        }
        guard parts[1].first == UInt8(ascii: "/"), parts[1].allSatisfy(isTargetByte) else {
            return .failure(Failure(reason: "target must be an origin-form path"))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(Failure(reason: "unsupported protocol version"))
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(Failure(reason: "header line without a colon"))
            }
            let name = line[line.startIndex..<colon]
            // A name must be a non-empty token; this also rejects obsolete line folding (a leading space).
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return .failure(Failure(reason: "invalid header name"))
            }
            let value = line[(colon + 1)...].drop { $0 == 32 || $0 == 9 }
            let trimmed = value.reversed().drop { $0 == 32 || $0 == 9 }.reversed()
            guard !trimmed.contains(where: { $0 == 0 || $0 == 13 || $0 == 10 }) else {
                return .failure(Failure(reason: "control character in header value"))
            }
            headers.append(
                (String(decoding: name, as: UTF8.self), String(decoding: trimmed, as: UTF8.self))
            )
        }
        return .success(
            RequestReader.Request(
                method: String(decoding: parts[0], as: UTF8.self),
                target: String(decoding: parts[1], as: UTF8.self),
                version: version,
                headers: headers
            )
        )
    }

    /// Splits `head` at each CRLF; a bare LF or CR inside a line is left in place and rejected by the checks.
    private static func split(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == 13, index + 1 < head.endIndex, head[index + 1] == 10 {
                lines.append(head[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(head[start..<head.endIndex])
        return lines
    }

    /// RFC 9110 `tchar`: the characters allowed in methods and header names.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Visible ASCII: what may appear in a request target (clients percent-encode everything else).
    static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 32 && byte < 127
    }
}
