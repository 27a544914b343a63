import FixtureServer
import Foundation
import Markup
import Testing

/// XXE and friends: no entity is expanded, no file is opened, no connection is made — whatever the
/// document declares. Each payload points at the ``Tripwires``: a marker file, a FIFO and a loopback
/// listener, which say afterwards whether anything touched them.
@Suite("Sitemap security (XXE, external DTDs, XInclude)")
struct SitemapSecurityTests {
    /// A payload: a document template whose `{FILE}`, `{FIFO}`, `{REL}` and `{HTTP}` name the tripwires,
    /// and the page URLs it must still give.
    struct Payload: Sendable, CustomTestStringConvertible {
        let name: String
        let template: String
        let pages: [String]
        var testDescription: String { name }
    }

    static let urlset = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"

    static let payloads: [Payload] = [
        Payload(
            name: "external general entities in <loc> and <lastmod>",
            template: """
                <?xml version="1.0"?>
                <!DOCTYPE urlset [
                  <!ENTITY secret SYSTEM "{FILE}"> <!ENTITY relative SYSTEM "{REL}">
                  <!ENTITY fifo SYSTEM "{FIFO}"> <!ENTITY remote SYSTEM "{HTTP}entity">
                ]>
                \(urlset)<url><loc>https://example.com/&secret;</loc><lastmod>&fifo;</lastmod></url>
                <url><loc>https://example.com/ok</loc></url><url><loc>&remote;&relative;</loc></url></urlset>
                """,
            pages: ["https://example.com/ok"]),
        Payload(
            name: "external parameter entities in the internal subset",
            template: """
                <?xml version="1.0"?>
                <!DOCTYPE urlset [<!ENTITY % fifo SYSTEM "{FIFO}"> %fifo; <!ENTITY % remote SYSTEM "{HTTP}dtd"> %remote;]>
                \(urlset)<url><loc>https://example.com/ok</loc></url></urlset>
                """,
            pages: ["https://example.com/ok"]),
        Payload(
            name: "external DTD subset (SYSTEM and PUBLIC)",
            template: """
                <?xml version="1.0"?>
                <!DOCTYPE urlset SYSTEM "{FIFO}">
                \(urlset)<url><loc>https://example.com/ok</loc></url></urlset>
                """,
            pages: ["https://example.com/ok"]),
        Payload(
            name: "external DTD subset over HTTP",
            template: """
                <!DOCTYPE urlset PUBLIC "-//X//DTD Sitemap//EN" "{HTTP}sitemap.dtd">
                \(urlset)<url><loc>https://example.com/ok</loc></url></urlset>
                """,
            pages: ["https://example.com/ok"]),
        Payload(
            name: "XInclude of a file, the FIFO and a URL",
            template: """
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xi="http://www.w3.org/2001/XInclude">
                <url><loc><xi:include href="{FILE}" parse="text"/></loc></url>
                <xi:include href="{FIFO}"/><xi:include href="{HTTP}include"/>
                <url><loc>https://example.com/ok</loc></url></urlset>
                """,
            pages: ["https://example.com/ok"]),
        Payload(
            name: "external entity in an Atom link href",
            template: """
                <!DOCTYPE feed [<!ENTITY secret SYSTEM "{FILE}">]>
                <feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/&secret;"/></entry></feed>
                """,
            pages: []),
    ]

    @Test("Nothing is expanded, opened or fetched", arguments: payloads)
    func payload(_ payload: Payload) async throws {
        let tripwires = try Tripwires()
        let document = payload.template
            .replacingOccurrences(of: "{FILE}", with: tripwires.markerFile.absoluteString)
            .replacingOccurrences(of: "{REL}", with: tripwires.markerFile.lastPathComponent)
            .replacingOccurrences(of: "{FIFO}", with: tripwires.fifo.absoluteString)
            .replacingOccurrences(of: "{HTTP}", with: tripwires.httpURL(""))
        // Named from the tripwire folder, so a relative entity would resolve to the marker file.
        let url = tripwires.folder.appendingPathComponent("sitemap.xml").absoluteString
        let (sitemap, touched) = await Self.read(document, url: url, watching: tripwires)
        #expect(!touched.fifo, "the parser opened the FIFO")
        #expect(!touched.network, "the parser connected to the loopback listener")
        let output = Self.text(of: sitemap)
        #expect(!output.contains(tripwires.marker), "the marker file's content leaked")
        #expect(!output.contains(tripwires.folder.path), "a tripwire path appears in the output")
        #expect(sitemap.pageURLs == payload.pages)
    }

    @Test("crawler-commons' canary: do-not-visit.txt, named absolutely and relatively, is never read")
    func canary() async throws {
        let canary = Fixtures.file("conformance/sitemaps/crawler-commons/sitemaps/do-not-visit.txt")
        let document = """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE urlset [<!ENTITY absolute SYSTEM "\(canary.absoluteString)"> <!ENTITY relative SYSTEM "do-not-visit.txt">]>
            \(Self.urlset)<url><loc>&absolute;</loc></url><url><loc>&relative;</loc></url>
            <url><loc>http://127.0.0.1:9393/</loc><lastmod>2019-06-19</lastmod></url></urlset>
            """
        let url = canary.deletingLastPathComponent().appendingPathComponent("sitemap.xml").absoluteString
        let sitemap = SitemapReader.read(Array(document.utf8), url: url)
        #expect(sitemap.pageURLs == ["http://127.0.0.1:9393/"])
        #expect(!Self.text(of: sitemap).contains("do-not-visit-here"))
        #expect(sitemap.issueKinds.filter { $0 == .entityNotExpanded }.count == 2)
    }

    /// What the tripwires saw while a document was read.
    struct Touched {
        var fifo = false
        var network = false
    }

    /// Reads `document` on a thread of its own, watching the tripwires meanwhile. A parser blocked opening
    /// the FIFO or waiting on a connection is seen and released (every time it tries), so a test of a
    /// broken parser fails rather than hangs.
    static func read(_ document: String, url: String, watching tripwires: Tripwires) async -> (Sitemap, Touched) {
        let watchdog = Task { () -> Touched in
            var touched = Touched()
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(20))
                if tripwires.fifoIsBeingRead() { touched.fifo = true }
                if tripwires.anyConnection() { touched.network = true }
            }
            return touched
        }
        let sitemap = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: SitemapReader.read(Array(document.utf8), url: url)) }.start()
        }
        watchdog.cancel()
        var touched = await watchdog.value
        touched.fifo = touched.fifo || tripwires.fifoIsBeingRead()
        touched.network = touched.network || tripwires.anyConnection()
        return (sitemap, touched)
    }

    /// Every string the sitemap holds.
    static func text(of sitemap: Sitemap) -> String {
        let entries = (sitemap.pages + sitemap.childSitemaps).map { "\($0.url) \($0.lastModified ?? "")" }
        return (entries + sitemap.issues.map(\.message)).joined(separator: "\n")
    }
}
