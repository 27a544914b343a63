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

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var error: [String: Any] = ["message": message]
        if let column { error["column"] = column }
        let data = try JSONSerialization.data(
            withJSONObject: ["error": error], options: [.sortedKeys, .withoutEscapingSlashes])
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
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
