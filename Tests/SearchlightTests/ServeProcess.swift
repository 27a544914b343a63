import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `searchlight serve` started on a free port, as an operator starts it, and an HTTP client for it.
/// Ready once it printed its `listening on` line (read from its output, not guessed with a sleep).
final class ServeProcess: Sendable {
    let process: KillableProcess
    let base: String

    /// Starts `serve` with `arguments` (the store, intervals, limits) and waits for its first line.
    init(_ arguments: [String]) async throws {
        process = try KillableProcess(CommandRunner.executable, ["serve", "--port", "0"] + arguments)
        let deadline = ContinuousClock.now + .seconds(60)
        var line: Substring?
        while ContinuousClock.now < deadline {
            if let first = process.standardOutput.split(separator: "\n").first, first.hasPrefix("listening on ") {
                line = first
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        guard let line else {
            process.kill()
            throw ServeFailure(message: "serve did not start: \(process.standardError)")
        }
        base = String(line.dropFirst("listening on ".count))
    }

    struct ServeFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// An answer: status, headers (names lowercased) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// Sends a request to `path` (with its query) and returns the answer.
    func request(
        _ path: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                guard let response = response as? HTTPURLResponse else {
                    continuation.resume(throwing: error ?? ServeFailure(message: "no answer"))
                    return
                }
                var fields: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    fields[String(describing: name).lowercased()] = String(describing: value)
                }
                continuation.resume(
                    returning: Answer(
                        status: response.statusCode, headers: fields,
                        body: String(decoding: data ?? Data(), as: UTF8.self)))
            }.resume()
        }
    }

    /// Asks until `accept` takes the answer to `path`, for at most `timeout`; returns the last answer.
    func poll(_ path: String, timeout: Duration = .seconds(30), until accept: (Answer) -> Bool) async throws -> Answer {
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer = try await request(path)
            if accept(answer) || ContinuousClock.now >= deadline { return answer }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Sends SIGTERM and returns the exit status.
    func stop() async -> Int32 {
        process.terminate()
        return await process.waitForExit()
    }
}
