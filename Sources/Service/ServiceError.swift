import Foundation
import Hummingbird

/// An answer other than success, as SPEC §6 shapes it: `{"error":{"message":"…"}}`, plus `"column"` for a
/// query that does not parse.
struct ServiceError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String
    var column: Int?
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, column: Int? = nil) {
        self.status = status
        self.message = message
        self.column = column
    }

    /// A 503 for work the server sheds when it is saturated: the client may try again after `retryAfter`
    /// seconds.
    static func saturated(_ message: String, retryAfter: Int) -> ServiceError {
        var error = ServiceError(.serviceUnavailable, message)
        error.headers[.retryAfter] = String(retryAfter)
        return error
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        let body = Self.body(message: message, column: column)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The JSON bytes of an error answer.
    static func body(message: String, column: Int? = nil) -> [UInt8] {
        var error: [String: Any] = ["message": message]
        if let column { error["column"] = column }
        let data =
            (try? JSONSerialization.data(
                withJSONObject: ["error": error], options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"error":{"message":"error"}}"#.utf8)
        return Array(data)
    }
}

extension Response {
    /// A 200 answer of `text` with `contentType`.
    static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A 200 JSON answer.
    static func json(_ text: String) -> Response {
        .text(text, contentType: "application/json")
    }
}
