import Foundation
import Glibc
import Logging
import StrictJSON
import Synchronization

/// The DevTools protocol over a browser's two pipes: each message is one JSON object followed by a NUL byte.
///
/// A command gets the next id and waits for the answer with that id; events (messages without an id) go to
/// the handler of their `sessionId` (a page attached in flat mode), or to the browser's own handler. A thread
/// of its own reads the answers (`read` blocks); writes run on a serial dispatch queue, never on the
/// cooperative pool (a large `Fetch.fulfillRequest` waits for the browser to read it). When the browser's end
/// closes, every waiting command fails with ``DevToolsError/closed``.
package final class DevToolsConnection: Sendable {
    /// A handler of events: the method and its parameters.
    package typealias EventHandler = @Sendable (_ method: String, _ parameters: JSONValue) -> Void

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var handlers: [String: EventHandler] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    private let commands: Int32
    private let writes = DispatchQueue(label: "searchlight.devtools.write")
    private let logger: Logger

    /// The largest message accepted from the browser; a larger one closes the connection.
    static let maximumMessageBytes = 256 << 20

    init(commands: Int32, answers: Int32, logger: Logger) {
        self.commands = commands
        self.logger = logger
        let reader = Thread { [self] in readLoop(answers) }
        reader.name = "searchlight-devtools-read"
        reader.start()
    }

    /// Sends `method` with `parameters` (to the page of `session`, or to the browser) and returns the
    /// answer's `result`.
    /// - Throws: ``DevToolsError``: the browser's error answer, a timeout, or a closed connection.
    @discardableResult
    package func send(
        _ method: String, _ parameters: [JSONMember] = [], session: String? = nil, timeout: Duration = .seconds(30)
    ) async throws -> JSONValue {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        var message = [
            JSONMember("id", .number(JSONNumber(id))), JSONMember("method", .string(method)),
            JSONMember("params", .object(parameters)),
        ]
        if let session { message.append(JSONMember("sessionId", .string(session))) }
        let bytes = Array(JSONValue.object(message).serialized().utf8) + [0]
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            fail(id, with: .timedOut(method: method))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let closed = state.withLock { state in
                if state.closed { return true }
                state.waiting[id] = continuation
                return false
            }
            if closed {
                continuation.resume(throwing: DevToolsError.closed)
                return
            }
            writes.async { [self] in
                if !Self.writeAll(bytes, to: commands) { close() }
            }
        }
    }

    /// Sets (or, with nil, removes) the handler of `session`'s events; `nil` session: the browser's own.
    package func onEvents(of session: String?, _ handler: EventHandler?) {
        state.withLock { $0.handlers[session ?? ""] = handler }
    }

    /// Closes the connection: waiting commands fail, later ones fail at once, and the browser reads the end
    /// of its command stream, as it does when this process dies.
    package func close() {
        let waiting = state.withLock { state in
            if state.closed { return [CheckedContinuation<JSONValue, any Error>]() }
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        writes.async { [commands] in _ = shutdown(commands, Int32(SHUT_WR)) }
        for continuation in waiting { continuation.resume(throwing: DevToolsError.closed) }
    }

    private func fail(_ id: Int, with error: DevToolsError) {
        let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
        continuation?.resume(throwing: error)
    }

    /// Reads messages until the browser's end closes, then closes the connection and the descriptors.
    private func readLoop(_ answers: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = buffer.count
            buffer.append(contentsOf: chunk[0..<count])
            while let end = buffer[start...].firstIndex(of: 0) {
                deliver(Array(buffer[..<end]))
                buffer.removeSubrange(...end)
                start = 0
            }
            if buffer.count > Self.maximumMessageBytes {
                logger.warning("a DevTools message passed the size limit; closing the connection")
                break reading
            }
        }
        Glibc.close(answers)
        writes.async { [commands] in Glibc.close(commands) }
        close()
    }

    /// Hands one message to its waiting command or its event handler.
    private func deliver(_ bytes: [UInt8]) {
        guard let message = try? JSONParser.parse(bytes) else {
            logger.debug("a DevTools message is not JSON")
            return
        }
        if let id = message["id"]?.intValue {
            let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
            if let error = message["error"] {
                continuation?.resume(
                    throwing: DevToolsError.answer(
                        code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? ""))
            } else {
                continuation?.resume(returning: message["result"] ?? .object([]))
            }
            return
        }
        guard let method = message["method"]?.stringValue else { return }
        let session = message["sessionId"]?.stringValue ?? ""
        let handler = state.withLock { $0.handlers[session] }
        handler?(method, message["params"] ?? .object([]))
    }

    /// Writes all of `bytes`; false when the pipe is gone.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}

/// Why a DevTools command failed.
package enum DevToolsError: Error, Sendable, CustomStringConvertible {
    /// The browser answered with an error.
    case answer(code: Int, message: String)
    /// No answer came in time.
    case timedOut(method: String)
    /// The browser's pipe closed (it exited, or was killed).
    case closed

    package var description: String {
        switch self {
        case .answer(let code, let message): "the browser refused the command (\(code)): \(message)"
        case .timedOut(let method): "the browser did not answer \(method) in time"
        case .closed: "the browser's connection closed"
        }
    }
}

extension JSONValue {
    /// An integer number's value; nil for anything else.
    var intValue: Int? {
        if case .number(let number) = self { number.integerValue } else { nil }
    }
}
