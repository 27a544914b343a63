import Foundation
import Logging
import Renderer
import Synchronization
import Testing

/// Pages that never settle, flood, hog memory, or lose their renderer: each render fails with its own error
/// within its budget, and the browser renders the next page.
@Suite struct RenderFaultTests {
    /// The limits of a page whose failure is its budget's (3 s), or, with `budget`, one whose failure is
    /// something else: a budget a loaded machine cannot reach first.
    static func limits(budget: Duration = .seconds(3)) -> RenderLimits {
        var limits = RenderLimits()
        limits.timeBudget = budget
        limits.maximumRequests = 50
        return limits
    }

    /// What a failure may take beyond its budget: disposing of the context (at most 5 s) and the wake-ups of
    /// a test process that shares two cores with hundreds of others.
    static let slack: Duration = .seconds(20)

    static func html(_ body: String) -> SubresourceAnswer {
        .response(status: 200, headers: [("Content-Type", "text/html")], body: Array(body.utf8))
    }

    /// Renders `page`, expects it to fail within the budget and ``slack``, and returns the error.
    static func failure(of page: String, on browser: BrowserProcess, budget: Duration = .seconds(3)) async
        -> RenderError?
    {
        let limits = limits(budget: budget)
        let clock = ContinuousClock()
        let start = clock.now
        var caught: RenderError?
        do {
            _ = try await browser.render("https://fault.example/", limits: limits) { request in
                request.resourceType == "Document" ? html(page) : .response(status: 200, headers: [], body: [])
            }
        } catch {
            caught = error
        }
        #expect(clock.now - start < limits.timeBudget + slack)
        return caught
    }

    /// The browser still renders a plain page.
    static func stillRenders(_ browser: BrowserProcess) async throws {
        let page = try await browser.render("https://fault.example/ok", limits: limits(budget: .seconds(60))) { _ in
            html("<title>fine</title>")
        }
        #expect(page.html.contains("<title>fine</title>"))
    }

    @Test("a script that never ends fails its page at the time budget")
    func endlessLoop() async throws {
        let browser = try await BrowserProcess.launch(logger: Logger(label: "test"))
        defer { browser.terminate() }
        let error = await Self.failure(of: "<script>while (true) {}</script>", on: browser)
        guard case .timeBudgetExceeded = error else {
            Issue.record("expected the time budget, got \(String(describing: error))")
            return
        }
        try await Self.stillRenders(browser)
    }

    @Test("a page that opens a thousand requests fails at the request cap")
    func requestFlood() async throws {
        let browser = try await BrowserProcess.launch(logger: Logger(label: "test"))
        defer { browser.terminate() }
        let error = await Self.failure(
            of: "<script>for (let i = 0; i < 1000; i++) fetch('/r' + i);</script>", on: browser, budget: .seconds(60))
        guard case .tooManyRequests(50) = error else {
            Issue.record("expected the request cap, got \(String(describing: error))")
            return
        }
        try await Self.stillRenders(browser)
    }

    /// The budget is long, so what ends the page is a memory bound: V8's heap limit (the renderer dies) or
    /// the browser's memory cap, never the clock; an unbounded page would take the machine's memory first.
    @Test("a page that allocates without bound fails at a memory bound, not the clock")
    func memoryHog() async throws {
        let browser = try await BrowserProcess.launch(heapMegabytes: 256, logger: Logger(label: "test"))
        defer { browser.terminate() }
        let error = await Self.failure(
            of: "<script>const a = []; while (true) a.push(new Array(1e6).fill(1));</script>", on: browser,
            budget: .seconds(60))
        switch error {
        case .crashed, .tooMuchMemory: break
        default: Issue.record("expected a memory bound, got \(String(describing: error))")
        }
        try await Self.stillRenders(browser)
    }

    @Test("a renderer killed with SIGKILL mid-page fails that page as crashed")
    func killedRenderer() async throws {
        let browser = try await BrowserProcess.launch(logger: Logger(label: "test"))
        defer { browser.terminate() }
        let page = "<script>fetch('/slow');</script>"
        let killed = Atomic<Bool>(false)
        var caught: RenderError?
        do {
            _ = try await browser.render("https://fault.example/", limits: Self.limits(budget: .seconds(60))) {
                request in
                if request.resourceType == "Document" { return Self.html(page) }
                // The page waits for this answer: its renderer is killed meanwhile.
                for pid in Self.renderers(of: browser.pid) { kill(pid, SIGKILL) }
                killed.store(true, ordering: .relaxed)
                try? await Task.sleep(for: .seconds(1))
                return .response(status: 200, headers: [], body: [])
            }
        } catch {
            caught = error
        }
        let wasKilled = killed.load(ordering: .relaxed)
        #expect(wasKilled)
        guard case .crashed = caught else {
            Issue.record("expected a crash, got \(String(describing: caught))")
            return
        }
        try await Self.stillRenders(browser)
    }

    @Test("a browser that stops answering fails the page within its budget and is killed")
    func hungBrowser() async throws {
        let browser = try await BrowserProcess.launch(logger: Logger(label: "test"))
        defer { browser.terminate() }
        kill(browser.pid, SIGSTOP)
        let error = await Self.failure(of: "<title>never</title>", on: browser)
        #expect(error != nil)
        browser.terminate()
        await browser.waitForExit()
        #expect(BrowserProcess.liveProcesses(inGroup: browser.pid).isEmpty)
    }

    /// The renderer processes of the browser `pid` (`--type=renderer` in their command line, same group).
    static func renderers(of pid: pid_t) -> [pid_t] {
        BrowserProcess.liveProcesses(inGroup: pid).compactMap { entry in
            guard let line = try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8),
                line.contains("--type=renderer")
            else { return nil }
            return entry
        }
    }
}
