import FixtureServer
import Foundation
import TestSupport
import Testing

/// The hostile page set (`Fixtures/sites/hostile`: unsafe URL schemes, control characters, a page named
/// only by `og:title`, unspaced scripts, a tracking-parameter link, a universal link alone) run through
/// the commands a user runs: `extract`, `crawl` + `publish` + `export` + `search` + `report`, and
/// `validate --html` rendered in headless Chromium.
@Suite(
    "The hostile page set through extract, crawl, publish, export and validate", .serialized, .timeLimit(.minutes(4)))
struct HostileSiteCommandTests {
    /// What no public or printed answer may hold.
    static let controls = ["\u{1B}", "\u{07}", "\u{9B}"]
    static let unsafeSchemes = ["javascript:", "vbscript:", "data:", "file:", "blob:"]

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every string in a JSON value that names a URL (by key) or is one (by shape).
    static func urlStrings(in value: Any, key: String = "") -> [String] {
        switch value {
        case let text as String:
            let lowered = key.lowercased()
            return lowered.contains("url") || lowered == "searchaction" || lowered == "uniqueidentifier" ? [text] : []
        case let array as [Any]: return array.flatMap { urlStrings(in: $0, key: key) }
        case let object as [String: Any]: return object.flatMap { urlStrings(in: $0.value, key: $0.key) }
        default: return []
        }
    }

    @Test("extract walks the set: no control character printed, no unsafe URL in any item")
    func extract() async throws {
        let site = Fixtures.site("hostile").path
        let text = try await CommandRunner.run(["extract", site, "--url", "https://harbour.example/"])
        for control in Self.controls { #expect(!text.standardOutput.contains(control)) }
        #expect(text.standardOutput.contains("Clear[2J screen[31m red"))
        let json = try await CommandRunner.run(["extract", site, "--url", "https://harbour.example/", "--json"])
        let objects = try json.standardOutput.split(separator: "\n").map { try jsonObject($0) }
        #expect(objects.count == 8)
        for object in objects {
            let item = try #require(object["item"] as? [String: Any])
            for url in Self.urlStrings(in: item) {
                #expect(!Self.unsafeSchemes.contains { url.lowercased().hasPrefix($0) }, "\(url)")
            }
        }
        let warnings = try await CommandRunner.run([
            "extract", Fixtures.site("hostile").appendingPathComponent("unsafe.html").path, "--url",
            "https://harbour.example/unsafe.html",
        ])
        #expect(warnings.standardOutput.contains("javascript"), "the refused values are reported")
        let ogOnly = try #require(objects.first { ($0["url"] as? String)?.hasSuffix("/og-only.html") == true })
        #expect(
            ((ogOnly["item"] as? [String: Any])?["attributeSet"] as? [String: Any])?["title"] as? String
                == "Harbour walks named only by Open Graph")
    }

    @Test("crawl, publish, export, search and report: canonical, clean, safe and findable")
    func pipeline() async throws {
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        let crawl = try await CommandRunner.run([
            "crawl", server.url("/"), "--store", store, "--allow-private-network", "--delay", "0",
        ])
        #expect(crawl.status == 0, "\(crawl.standardOutput)\(crawl.standardError)")
        let publish = try await CommandRunner.run(["publish", "--store", store])
        #expect(publish.status == 0, "\(publish.standardError)")
        let export = try await CommandRunner.run(["export", "--store", store])
        let items = try export.standardOutput.split(separator: "\n").map { try jsonObject($0) }
        let identifiers = items.compactMap { $0["uniqueIdentifier"] as? String }
        #expect(identifiers.contains(server.url("/tracked.html?b=1")), "\(identifiers)")
        #expect(identifiers.contains(server.url("/og-only.html")))
        #expect(!identifiers.contains { $0.contains("private") })
        for item in items {
            for url in Self.urlStrings(in: item) {
                #expect(!Self.unsafeSchemes.contains { url.lowercased().hasPrefix($0) }, "\(url)")
                #expect(!url.contains("utm_") && !url.contains("#"), "\(url)")
            }
        }
        for control in Self.controls + ["\\u001b", "\\u0007", "\\u009b"] {
            #expect(!export.standardOutput.contains(control), "export holds \(control.debugDescription)")
        }
        for query in ["clear", "ガイド", "京都", "北京", "ภาษา"] {
            let search = try await CommandRunner.run(["search", query, "--store", store])
            #expect(search.status == 0, "\(search.standardError)")
            #expect(!search.standardOutput.hasPrefix("No results"), "\(query) finds nothing")
            for control in Self.controls { #expect(!search.standardOutput.contains(control)) }
        }
        for format in ["text", "markdown", "html"] {
            let report = try await CommandRunner.run(["report", "--store", store, "--format", format])
            #expect(report.status == 0, "\(report.standardError)")
            for control in Self.controls { #expect(!report.standardOutput.contains(control), "\(format)") }
        }
    }

    @Test("validate --html on hostile pages renders a real card in Chromium, with no unsafe link or image")
    func validateRendersInChromium() async throws {
        let chromium = try #require(Chromium.locate(), Comment(rawValue: Chromium.missingMessage))
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for page in ["unsafe.html", "controls.html", "kyoto.html", "og-only.html"] {
            let html = folder.appendingPathComponent("\(page).report.html")
            let outcome = try await CommandRunner.run([
                "validate", server.url("/\(page)"), "--allow-private-network", "--html", html.path,
            ])
            #expect(outcome.status != 3, "\(page): \(outcome.standardError)")
            for control in Self.controls { #expect(!outcome.standardOutput.contains(control), "\(page)") }
            let dom = try await chromium.dumpDOM(of: html, in: folder)
            #expect(dom.contains("class=\"card\""), "\(page): no preview card")
            for scheme in Self.unsafeSchemes {
                for attribute in [
                    "src=\"\(scheme)", "href=\"\(scheme)", "url(\(scheme)", "url('\(scheme)", "url(\"\(scheme)",
                ] {
                    #expect(!dom.lowercased().contains(attribute), "\(page): \(attribute)")
                }
            }
            let png = try await chromium.screenshot(
                of: html, to: folder.appendingPathComponent("\(page).png"), width: 800, height: 900, in: folder)
            #expect(png.count > 8192, "\(page): a blank render (\(png.count) bytes)")
        }
    }

    @Test("validate counts a universal link as the page's deep link")
    func validateUniversalLink() async throws {
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let outcome = try await CommandRunner.run([
            "validate", server.url("/universal.html"), "--allow-private-network", "--plain-http-app-site-association",
            "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        let report = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((report["appResult"] as? [String: Any])?["eligible"] as? Bool == true)
        let checks = try #require(report["checks"] as? [[String: Any]])
        let deepLink = try #require(checks.first { $0["name"] as? String == "deepLink" })
        #expect(deepLink["status"] as? String == "pass", "\(deepLink)")
        let text = try await CommandRunner.run([
            "validate", server.url("/universal.html"), "--allow-private-network", "--plain-http-app-site-association",
        ])
        #expect(text.standardOutput.contains("app result: eligible"))
    }
}
