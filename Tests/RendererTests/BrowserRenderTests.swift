import Foundation
import Logging
import Renderer
import Testing

/// Headless Chromium driven over its DevTools pipe, with every request the page makes answered here: the
/// markup scripts write is in the rendered DOM, images and fonts are refused unasked, contexts share no
/// cookies, and no browser process outlives the browser's owner.
@Suite struct BrowserRenderTests {
    static let page = """
        <!DOCTYPE html><html><head><title>served</title>
        <script>document.title = "Written by an inline script";</script>
        <script src="/app.js"></script>
        </head><body><img src="/logo.png"><div id="root"></div></body></html>
        """
    static let script = """
        const ld = document.createElement("script");
        ld.type = "application/ld+json";
        fetch("/data.json").then(r => r.json()).then(data => {
            ld.textContent = JSON.stringify(data);
            document.head.appendChild(ld);
            const meta = document.createElement("meta");
            meta.setAttribute("property", "og:title");
            meta.content = data.name;
            document.head.appendChild(meta);
        });
        """
    static let files: [String: (type: String, body: String)] = [
        "https://render.example/": ("text/html; charset=utf-8", page),
        "https://render.example/app.js": ("text/javascript", script),
        "https://render.example/data.json": ("application/json", #"{"@type":"Recipe","name":"Lemon tart"}"#),
    ]

    static func serve(_ request: SubresourceRequest) -> SubresourceAnswer {
        guard let file = files[request.url] else { return .refused(reason: "not on the test site") }
        return .response(status: 200, headers: [("Content-Type", file.type)], body: Array(file.body.utf8))
    }

    /// Limits no render here reaches on a loaded machine: these tests are about what a page writes.
    static var limits: RenderLimits {
        var limits = RenderLimits()
        limits.timeBudget = .seconds(60)
        return limits
    }

    static func launch() async throws -> BrowserProcess {
        try await BrowserProcess.launch(logger: Logger(label: "test"))
    }

    @Test("markup written by an inline script, a script file and a fetch of JSON is in the rendered DOM")
    func scriptsWriteTheMarkup() async throws {
        let browser = try await Self.launch()
        defer { browser.terminate() }
        let page = try await browser.render("https://render.example/", limits: Self.limits) { Self.serve($0) }
        #expect(page.html.contains("<title>Written by an inline script</title>"))
        #expect(page.html.contains(#"property="og:title" content="Lemon tart""#))
        #expect(page.html.contains(#"{"@type":"Recipe","name":"Lemon tart"}"#))
        let asked = Set(page.requests.map(\.request.url))
        #expect(asked.isSuperset(of: Self.files.keys))
        let image = page.requests.first { $0.request.url == "https://render.example/logo.png" }
        #expect(image?.refusal == "images are not fetched")
    }

    @Test("a cookie one page sets is not sent for the next page: each page has a fresh context")
    func contextsAreIsolated() async throws {
        let browser = try await Self.launch()
        defer { browser.terminate() }
        let setter = """
            <html><head><script>document.cookie = "seen=1; path=/"; document.title = "cookie:" + document.cookie;</script></head><body></body></html>
            """
        let reader = """
            <html><head><script>document.title = "cookie:" + document.cookie;</script></head><body></body></html>
            """
        let first = try await browser.render("https://render.example/set", limits: Self.limits) { _ in
            .response(status: 200, headers: [("Content-Type", "text/html")], body: Array(setter.utf8))
        }
        #expect(first.html.contains("<title>cookie:seen=1</title>"))
        let second = try await browser.render("https://render.example/read", limits: Self.limits) { _ in
            .response(status: 200, headers: [("Content-Type", "text/html")], body: Array(reader.utf8))
        }
        #expect(second.html.contains("<title>cookie:</title>"))
    }

    @Test("a browser whose owner's end of the pipe closes (the owner died) exits by itself")
    func browserExitsWhenItsOwnerGoes() async throws {
        let browser = try await Self.launch()
        defer { browser.terminate() }
        browser.connection.close()
        let clock = ContinuousClock()
        let start = clock.now
        await browser.waitForExit()
        #expect(browser.hasExited)
        #expect(clock.now - start < .seconds(10))
        #expect(BrowserProcess.liveProcesses(inGroup: browser.pid).isEmpty)
    }

    @Test("the browser's processes are gone once it is terminated")
    func noProcessOutlivesTheBrowser() async throws {
        let browser = try await Self.launch()
        _ = try await browser.render("https://render.example/", limits: Self.limits) { Self.serve($0) }
        let group = browser.pid
        // The browser, its zygotes and the page's renderer share the group: the check below is not empty-handed.
        #expect(BrowserProcess.liveProcesses(inGroup: group).count > 2)
        browser.terminate()
        await browser.waitForExit()
        #expect(BrowserProcess.liveProcesses(inGroup: group).isEmpty)
    }
}
