import Foundation
import StrictJSON
import Synchronization

/// One page's visit in its browser context: the target, its session in flat mode, the requests it makes
/// (each answered by Searchlight through `Fetch`), and the moment it settles.
enum PageVisit {
    /// What the visit's event loop sees: a DevTools event of the page, a request answered, or a tick of the
    /// clock that checks for quiet and the budget.
    private enum Signal: Sendable {
        case event(String, JSONValue)
        case answered
        case tick
    }

    static func run(
        _ url: String, in context: String, connection: DevToolsConnection, limits: RenderLimits,
        deadline: RenderDeadline, residentBytes: @Sendable () -> Int,
        answer: @escaping @Sendable (SubresourceRequest) async -> SubresourceAnswer
    ) async throws -> RenderedPage {
        let clock = ContinuousClock()
        let created = try await connection.send(
            "Target.createTarget",
            [JSONMember("url", .string("about:blank")), JSONMember("browserContextId", .string(context))],
            timeout: try deadline.remaining())
        guard let target = created["targetId"]?.stringValue else { throw DevToolsError.closed }
        let attached = try await connection.send(
            "Target.attachToTarget", [JSONMember("targetId", .string(target)), JSONMember("flatten", .bool(true))],
            timeout: try deadline.remaining())
        guard let session = attached["sessionId"]?.stringValue else { throw DevToolsError.closed }

        let (signals, signal) = AsyncStream.makeStream(of: Signal.self)
        connection.onEvents(of: session) { method, parameters in signal.yield(.event(method, parameters)) }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                signal.yield(.tick)
            }
        }
        defer {
            ticker.cancel()
            signal.finish()
            connection.onEvents(of: session, nil)
        }

        try await connection.send(
            "Fetch.enable", [JSONMember("patterns", .array([.object([JSONMember("urlPattern", .string("*"))])]))],
            session: session, timeout: try deadline.remaining())
        try await connection.send("Page.enable", session: session, timeout: try deadline.remaining())
        // A page may not open windows: `window.open` reports to the visit through a binding and opens nothing.
        try await connection.send("Runtime.enable", session: session, timeout: try deadline.remaining())
        try await connection.send(
            "Runtime.addBinding", [JSONMember("name", .string(Self.windowBinding))], session: session,
            timeout: try deadline.remaining())
        try await connection.send(
            "Page.addScriptToEvaluateOnNewDocument",
            [JSONMember("source", .string(Self.windowGuard))], session: session, timeout: try deadline.remaining())
        // The navigation's answer waits for the document, which this loop answers: sent, not awaited.
        let navigation = Task {
            try await connection.send(
                "Page.navigate", [JSONMember("url", .string(url))], session: session, timeout: deadline.budget)
        }
        defer { navigation.cancel() }

        let ledger = RequestLedger()
        var loaded = false
        var lastActivity = clock.now
        for await next in signals {
            switch next {
            case .event("Fetch.requestPaused", let parameters):
                lastActivity = clock.now
                guard let request = Self.request(parameters), let id = parameters["requestId"]?.stringValue else {
                    continue
                }
                guard ledger.admit(request, limit: limits.maximumRequests) else {
                    throw RenderError.tooManyRequests(limits.maximumRequests)
                }
                Task {
                    await Self.answer(
                        request, id: id, session: session, connection: connection, ledger: ledger, limits: limits,
                        using: answer)
                    signal.yield(.answered)
                }
            case .event("Page.loadEventFired", _):
                loaded = true
                lastActivity = clock.now
            case .event("Page.frameNavigated", let parameters):
                let frame = parameters["frame"]
                if frame?["parentId"] == nil, let to = frame?["url"]?.stringValue, ledger.documentCount > 1 {
                    throw RenderError.navigatedAway(to: to)
                }
            case .event("Runtime.bindingCalled", let parameters)
            where parameters["name"]?.stringValue == Self.windowBinding:
                throw RenderError.openedWindow(parameters["payload"]?.stringValue ?? "")
            case .event("Inspector.targetCrashed", _):
                throw RenderError.crashed
            case .answered:
                lastActivity = clock.now
            case .tick:
                if residentBytes() > limits.maximumResidentBytes {
                    throw RenderError.tooMuchMemory(limits.maximumResidentBytes)
                }
            case .event:
                break
            }
            if let overflow = ledger.overflow(limit: limits.maximumBytes) { throw RenderError.tooManyBytes(overflow) }
            if deadline.isPast { throw RenderError.timeBudgetExceeded(limits.timeBudget) }
            // A crawl that stops (Ctrl-C) does not wait for its renders' budgets.
            try Task.checkCancellation()
            if loaded, ledger.inFlight == 0, clock.now - lastActivity >= limits.quietPeriod { break }
        }
        let evaluated = try await connection.send(
            "Runtime.evaluate",
            [
                JSONMember("expression", .string("document.documentElement.outerHTML")),
                JSONMember("returnByValue", .bool(true)),
            ], session: session, timeout: try deadline.remaining())
        guard let html = evaluated["result"]?["value"]?.stringValue else {
            throw RenderError.browser(.answer(code: 0, message: "the page has no document element"))
        }
        return RenderedPage(html: html, requests: ledger.requests)
    }

    /// The binding `window.open` calls instead of opening a window.
    static let windowBinding = "__searchlightWindowOpened"

    /// Runs before the page's own scripts in every document of the visit.
    static let windowGuard = """
        (() => {
          const report = globalThis.\(windowBinding);
          window.open = function (url) { try { report(String(url ?? "")); } catch (e) {} return null; };
        })();
        """

    private static func request(_ parameters: JSONValue) -> SubresourceRequest? {
        guard let url = parameters["request"]?["url"]?.stringValue else { return nil }
        return SubresourceRequest(
            url: url, method: parameters["request"]?["method"]?.stringValue ?? "GET",
            resourceType: parameters["resourceType"]?.stringValue ?? "Other")
    }

    /// Answers one paused request: refused by type, or as `answer` says.
    private static func answer(
        _ request: SubresourceRequest, id: String, session: String, connection: DevToolsConnection,
        ledger: RequestLedger, limits: RenderLimits,
        using answer: @Sendable (SubresourceRequest) async -> SubresourceAnswer
    ) async {
        defer { ledger.finish() }
        let outcome: SubresourceAnswer =
            request.isRefusedByType
            ? .refused(reason: "\(request.resourceType.lowercased())s are not fetched") : await answer(request)
        switch outcome {
        case .response(let status, let headers, let body):
            ledger.record(request, refusal: nil, bytes: body.count)
            let headerList = headers.map { header in
                JSONValue.object([JSONMember("name", .string(header.name)), JSONMember("value", .string(header.value))])
            }
            _ = try? await connection.send(
                "Fetch.fulfillRequest",
                [
                    JSONMember("requestId", .string(id)), JSONMember("responseCode", .number(JSONNumber(status))),
                    JSONMember("responseHeaders", .array(headerList)),
                    JSONMember("body", .string(Data(body).base64EncodedString())),
                ], session: session)
        case .refused(let reason):
            ledger.record(request, refusal: reason, bytes: 0)
            _ = try? await connection.send(
                "Fetch.failRequest",
                [JSONMember("requestId", .string(id)), JSONMember("errorReason", .string("BlockedByClient"))],
                session: session)
        }
    }
}

/// The requests of one visit: how many were admitted and are still being answered, the bytes answered,
/// and what became of each.
final class RequestLedger: Sendable {
    private struct State {
        var admitted = 0
        var inFlight = 0
        var documents = 0
        var bytes = 0
        var requests: [RenderedPage.Request] = []
    }

    private let state = Mutex(State())

    /// Counts `request` in; false when it is one past `limit`.
    func admit(_ request: SubresourceRequest, limit: Int) -> Bool {
        state.withLock { state in
            state.admitted += 1
            if request.resourceType == "Document" { state.documents += 1 }
            guard state.admitted <= limit else { return false }
            state.inFlight += 1
            return true
        }
    }

    func record(_ request: SubresourceRequest, refusal: String?, bytes: Int) {
        state.withLock { state in
            state.bytes += bytes
            state.requests.append(RenderedPage.Request(request: request, refusal: refusal))
        }
    }

    func finish() {
        state.withLock { $0.inFlight -= 1 }
    }

    var inFlight: Int { state.withLock { $0.inFlight } }
    var documentCount: Int { state.withLock { $0.documents } }
    var requests: [RenderedPage.Request] { state.withLock { $0.requests } }

    /// The limit, when the bytes answered passed it.
    func overflow(limit: Int) -> Int? {
        state.withLock { $0.bytes > limit ? limit : nil }
    }
}
