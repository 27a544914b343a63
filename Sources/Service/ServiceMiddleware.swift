import Foundation
import Hummingbird
import Logging

/// One access log line per request through swift-log: method, path (without the query, which may hold
/// what someone searched for), status and duration.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: start)
            return response
        } catch {
            log(request, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant) {
        let milliseconds = (ContinuousClock.now - start) / .milliseconds(1)
        logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(status)",
                "ms": "\(String(format: "%.2f", milliseconds))",
            ])
    }
}

/// Every answer, errors included, as SPEC §6 shapes it: an error is the JSON error object (Hummingbird's
/// own, such as the 404 of a path no route serves, and any other failure as a 500 whose cause is logged,
/// never sent), and every answer carries the security headers: no sniffing, no framing, no referrer (the
/// HTML pages add their own Content-Security-Policy).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as ServiceError {
            response = try error.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            response = try ServiceError(error.status, Self.message(for: error.status))
                .response(from: request, context: context)
        } catch {
            logger.error("request failed", metadata: ["path": "\(request.uri.path)", "reason": "\(error)"])
            response = try ServiceError(.internalServerError, "the server failed to answer")
                .response(from: request, context: context)
        }
        for field in SecurityHeaders.fields { response.headers[.init(field.name)!] = field.value }
        return response
    }

    private static func message(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "nothing is served at this path"
        case .contentTooLarge: "the body is too large"
        default: status.reasonPhrase.isEmpty ? "HTTP \(status.code)" : status.reasonPhrase
        }
    }
}

/// The headers every answer carries, also those the connection rules write themselves.
enum SecurityHeaders {
    static let fields: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
    ]
}
