import FixtureServer
import Foundation
import TestSupport
import Testing

/// `crawl --render` and `validate --render` on the scripted site (`Fixtures/sites/scripted`), against the
/// loopback fixture server and Debian's Chromium: what scripts write is searchable with `auto` and not with
/// `never`, and every request a page makes goes through Searchlight's fetcher — the crawl's user agent,
/// robots.txt, the address policy, scripts and styles fetched once per pass, images and fonts never.
@Suite("Rendering through the command line", .serialized, .timeLimit(.minutes(5)))
struct RenderCommandTests {
    static let userAgent = "SearchlightRenderTest/1.0 (+https://searchlight.invalid/bot)"
    /// Words only the rendered pages hold, one per scripted page that should be found.
    static let scriptWords = ["Lanternfish", "Quillwort", "Bladderwrack", "Marram", "Samphire", "Tidewrack"]

    struct Crawled {
        /// Set in the crawl's environment, which every browser it starts inherits.
        var mark: String
        var store: String
        var summary: [String: Any]
        var requests: [FixtureRequest]
        var folder: URL
    }

    /// Crawls the scripted site into a new store with `mode` and publishes it. Loopback is the one special
    /// range allowed, so the page's request for a link-local metadata address is refused.
    static func crawl(render mode: String) async throws -> Crawled {
        let server = try await FixtureServer.start(site: "scripted")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("s.sqlite").path
        let mark = "render-\(UUID().uuidString)"
        let crawl = try await CommandRunner.run(
            [
                "crawl", server.url("/"), "--store", store, "--allow-network", "loopback", "--delay", "0",
                "--render", mode, "--user-agent", userAgent, "--json",
            ], environment: ["SEARCHLIGHT_TEST_MARK": mark])
        let requests = await server.requests()
        await server.stop()
        #expect(crawl.status == 0, "\(crawl.standardOutput)\(crawl.standardError)")
        let publish = try await CommandRunner.run(["publish", "--store", store])
        #expect(publish.status == 0, "\(publish.standardError)")
        let summary = try jsonObject(crawl.standardOutput.split(separator: "\n").last ?? "{}")
        return Crawled(mark: mark, store: store, summary: summary, requests: requests, folder: folder)
    }

    /// The live processes whose environment holds `mark`: what the crawl started and left behind (other
    /// tests' browsers, running meanwhile, are not counted).
    static func processes(marked mark: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")"),
                stat[stat.index(after: end)...].split(separator: " ").first != "Z",
                environment.range(of: Data(("SEARCHLIGHT_TEST_MARK=" + mark).utf8)) != nil
            else { return nil }
            return pid
        }
    }

    static func titles(in store: String) async throws -> [String: String] {
        let export = try await CommandRunner.run(["export", "--store", store])
        var titles: [String: String] = [:]
        for line in export.standardOutput.split(separator: "\n") {
            let item = try jsonObject(line)
            guard let identifier = item["uniqueIdentifier"] as? String,
                let title = (item["attributeSet"] as? [String: Any])?["title"] as? String
            else { continue }
            titles[String(identifier.split(separator: "/").last ?? "")] = title
        }
        return titles
    }

    static func finds(_ word: String, in store: String) async throws -> Bool {
        let search = try await CommandRunner.run(["search", word, "--store", store])
        #expect(search.status == 0 || search.status == 1, "\(search.standardError)")
        return !search.standardOutput.hasPrefix("No results") && search.standardOutput.contains(word)
    }

    @Test("auto: every script-built page is searchable, through requests the crawler made and counted")
    func auto() async throws {
        let crawled = try await Self.crawl(render: "auto")
        defer { try? FileManager.default.removeItem(at: crawled.folder) }
        for word in Self.scriptWords {
            #expect(try await Self.finds(word, in: crawled.store), "\(word) is not searchable")
        }
        #expect(!(try await Self.finds("Gorsebloom", in: crawled.store)), "a disallowed script ran")
        let titles = try await Self.titles(in: crawled.store)
        #expect(titles["metadata.html"] == "Tidewrack metadata refused")
        #expect(titles["cookie-b.html"] == "Saltmarsh cookie reader sees none", "a cookie crossed contexts")
        #expect(titles["cookie-a.html"] == "Brackish cookie setter")

        let paths = crawled.requests.map(\.path)
        #expect(paths.filter { $0 == "/app.js" }.count == 1, "the script file once per pass: \(paths)")
        #expect(paths.filter { $0 == "/style.css" }.count == 1, "the style sheet once per pass: \(paths)")
        #expect(paths.filter { $0 == "/data/fetch.json" }.count == 1)
        #expect(paths.filter { $0 == "/data/xhr.json" }.count == 1)
        #expect(!paths.contains("/logo.png") && !paths.contains("/font.woff2"), "an image or font was fetched")
        #expect(!paths.contains { $0.hasPrefix("/blocked/") }, "robots.txt was not obeyed: \(paths)")
        for request in crawled.requests {
            let agent = request.headers.first { $0.name.lowercased() == "user-agent" }?.value
            #expect(agent == Self.userAgent, "\(request.method) \(request.path) went with \(agent ?? "no agent")")
            #expect(!request.headers.contains { $0.name.lowercased() == "cookie" }, "\(request.path) sent a cookie")
        }

        let counters = try #require(crawled.summary["counters"] as? [String: Any], "\(crawled.summary)")
        let rendering = try #require(counters["rendering"] as? [String: Int], "\(crawled.summary)")
        #expect(rendering["rendered"] == 8, "\(rendering)")
        #expect(rendering["scripts-disallowed"] == 1, "\(rendering)")
        // The index has a title and a description but no structured data, and no script that could add any.
        #expect(rendering["no-scripts"] == 1, "\(rendering)")
        #expect(Self.processes(marked: crawled.mark).isEmpty, "a browser outlived the crawl")
    }

    @Test("never: none of what scripts write is searchable, and no browser starts")
    func never() async throws {
        let crawled = try await Self.crawl(render: "never")
        defer { try? FileManager.default.removeItem(at: crawled.folder) }
        for word in Self.scriptWords + ["Saltmarsh", "Brackish"] {
            #expect(!(try await Self.finds(word, in: crawled.store)), "\(word) found without rendering")
        }
        #expect(!crawled.requests.map(\.path).contains("/app.js"))
    }

    @Test("validate --render names the script robots.txt disallows and what only scripts supply")
    func validate() async throws {
        let server = try await FixtureServer.start(site: "scripted")
        defer { Task { await server.stop() } }
        let blocked = try await CommandRunner.run([
            "validate", server.url("/blocked.html"), "--render", "--allow-network", "loopback",
        ])
        #expect(blocked.standardOutput.contains(server.url("/blocked/build.js")), "\(blocked.standardOutput)")
        #expect(blocked.standardOutput.contains("robots.txt"), "\(blocked.standardOutput)")
        let inline = try await CommandRunner.run([
            "validate", server.url("/inline.html"), "--render", "--allow-network", "loopback",
        ])
        #expect(inline.standardOutput.contains("only from scripts: title"), "\(inline.standardOutput)")
        let paths = await server.requests().map(\.path)
        #expect(!paths.contains { $0.hasPrefix("/blocked/") })
    }

    @Test("faults end their pages with counted errors; the calm page is indexed and no browser is left")
    func faults() async throws {
        let server = try await FixtureServer.start(site: "render-faults")
        defer { Task { await server.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        let mark = "render-\(UUID().uuidString)"
        let crawl = try await CommandRunner.run(
            [
                "crawl", server.url("/"), "--store", store, "--allow-network", "loopback", "--delay", "0",
                "--render-timeout", "10", "--json",
            ], environment: ["SEARCHLIGHT_TEST_MARK": mark])
        #expect(crawl.status == 0 || crawl.status == 1, "\(crawl.standardOutput)\(crawl.standardError)")
        let summary = try jsonObject(crawl.standardOutput.split(separator: "\n").last ?? "{}")
        let counters = try #require(summary["counters"] as? [String: Any], "\(summary)")
        let errors = counters["errors"] as? [String: Int] ?? [:]
        for key in ["render-too-many-requests", "render-navigated-away", "render-opened-window"] {
            #expect(errors[key] == 1, "\(key): \(errors)")
        }
        // The endless loop ends at the time budget. The hog ends at a memory bound (V8's heap limit kills its
        // renderer, or the browser passes its cap), or, on a machine so loaded that filling 512 MiB takes
        // longer than the budget, at the budget: never anything else, and never not at all.
        let hog = (errors["render-crashed"] ?? 0) + (errors["render-memory"] ?? 0)
        #expect(hog + (errors["render-time-budget"] ?? 0) == 2 && hog <= 1, "\(errors)")
        // A crashed renderer may be the browser's fault: that page is tried again, like a network failure.
        let retries = counters["retries"] as? Int ?? -1
        #expect((counters["rendering"] as? [String: Int])?["failed"] == 5 + retries, "\(counters)")
        #expect(Self.processes(marked: mark).isEmpty, "a browser outlived the crawl")
        let publish = try await CommandRunner.run(["publish", "--store", store])
        #expect(publish.status == 0, "\(publish.standardError)")
        #expect(try await Self.finds("Periwinkle", in: store))
    }
}
