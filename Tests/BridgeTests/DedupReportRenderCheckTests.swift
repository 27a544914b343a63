import Bridge
import FixtureServer
import Foundation
import TestSupport
import Testing

/// Opens the HTML report in a real browser (headless Chromium) and reads back what it built.
/// Serialized: one Chromium at a time on a two-core machine.
@Suite(.serialized) struct DedupReportRenderCheckTests {
    /// A throwaway folder for pages, DOM dumps, screenshots and Chromium profiles.
    private static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The script a hostile record would run if escaping failed: it marks the document.
    private static let probe = "document.documentElement.setAttribute('data-pwned', 'yes')"

    /// Hostile strings carrying the probe in every place a record's text lands.
    private static var hostileReport: DedupReport {
        let script = "<script>\(probe)</script>"
        let image = "\"><img src=x onerror=\"\(probe)\">"
        return DedupReport(
            summary: .init(
                pages: 2, activities: 1, searchableItems: 0, clusters: 2, published: 1, duplicatesMerged: 1,
                withheld: [script: 1]),
            clusters: [
                .init(
                    id: "https://ok.example/" + image, published: true, reason: "published", matchedBy: [script],
                    members: [
                        .init(source: "web", id: script, url: "https://ok.example/" + image, status: "public"),
                        .init(
                            source: "activity", id: "a", url: "javascript:\(probe)", bundleIdentifier: image,
                            status: script),
                    ],
                    uniqueIdentifier: "https://ok.example/" + image),
                .init(
                    id: script, published: false, reason: image, matchedBy: [],
                    members: [.init(source: image, id: "b", url: "data:text/html,\(script)")]),
            ],
            generatedAt: "</title>\(script)",
            engagementThreshold: 3)
    }

    @Test func chromiumBuildsTheExpectedDocumentAndRunsNothingFromTheData() async throws {
        let chromium = try #require(Chromium.locate(), Comment(rawValue: Chromium.missingMessage))
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Control: the same harness does see a script that runs, so the check below can fail.
        let control = folder.appendingPathComponent("control.html")
        try "<!DOCTYPE html><title>c</title><script>\(Self.probe)</script>".write(
            to: control, atomically: true, encoding: .utf8)
        #expect(try await chromium.dumpDOM(of: control, in: folder).contains("data-pwned=\"yes\""))

        let page = folder.appendingPathComponent("report.html")
        try Self.hostileReport.renderedHTML().write(to: page, atomically: true, encoding: .utf8)
        let dom = try await chromium.dumpDOM(of: page, in: folder)

        #expect(!dom.contains("data-pwned=\"yes\""), "a script from the data ran")
        // Only the page's own elements and attributes (no script, img, iframe, event handler or src).
        let tags = HTMLTag.scan(dom)
        #expect(Set(tags.map { String($0.name.trimmingPrefix("/")) }).isSubset(of: HTMLTag.reportElements))
        #expect(Set(tags.flatMap(\.attributes)).isSubset(of: HTMLTag.reportAttributes))
        #expect(tags.filter { $0.name == "article" }.count == 2)
        #expect(tags.filter { $0.name == "tr" }.count == 2 + 3 + 2)
        // Nothing on the page loads anything: no CSS url() either, and a CSP that forbids it.
        #expect(!dom.lowercased().contains("url("))
        #expect(dom.contains("content=\"default-src 'none'; style-src 'unsafe-inline'"))
        // The expected structure, with the hostile text shown as text.
        #expect(dom.contains("<title>Searchlight dedup report</title>"))
        #expect(dom.contains("<h1>Searchlight dedup report</h1>"))
        #expect(dom.components(separatedBy: "<li class=\"card\">").count - 1 == 7)
        #expect(dom.contains("<span class=\"badge withheld\">Withheld</span>"))
        #expect(dom.contains("<span class=\"badge published\">Published</span>"))
        #expect(dom.contains("<strong class=\"threshold\">3</strong>"))
        #expect(dom.contains("&lt;script&gt;\(Self.probe)&lt;/script&gt;"))
        #expect(dom.contains("<td class=\"id\">javascript:document.documentElement"))
        // Links: only the two https ones (unique identifier and the web member's URL), never javascript: or data:.
        let hrefs = dom.components(separatedBy: "href=\"").dropFirst().map { $0.prefix(while: { $0 != "\"" }) }
        #expect(hrefs.count == 2)
        #expect(hrefs.allSatisfy { $0.hasPrefix("https://ok.example/") })
    }

    @Test func chromiumScreenshotsTheSmallReport() async throws {
        let chromium = try #require(Chromium.locate(), Comment(rawValue: Chromium.missingMessage))
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("small.html")
        try DedupReportSamples.small.renderedHTML().write(to: page, atomically: true, encoding: .utf8)
        let png = try await chromium.screenshot(
            of: page, to: folder.appendingPathComponent("small.png"), width: 1000, height: 1400, in: folder)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // A blank page of that size compresses to a few kilobytes; the report is well over that.
        #expect(png.count > 50_000)
    }
}
