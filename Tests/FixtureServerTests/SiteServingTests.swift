import FixtureServer
import Foundation
import Testing

/// Serving the bundled example site: files, content types, index pages, HEAD, 404, 405.
@Suite("Serving a fixture site")
struct SiteServingTests {
    @Test(
        "Files are served with a content type from their extension",
        arguments: [
            ("/", "text/html; charset=utf-8"),
            ("/index.html", "text/html; charset=utf-8"),
            ("/about.html", "text/html; charset=utf-8"),
            ("/recipes/lemon-tart.html", "text/html; charset=utf-8"),
            ("/robots.txt", "text/plain; charset=utf-8"),
            ("/sitemap.xml", "application/xml"),
        ]
    )
    func servesFile(path: String, contentType: String) async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest(path)
        let response = try connection.readResponse()

        let file = path == "/" ? "index.html" : String(path.dropFirst())
        let expected = try Self.served("sites/example/\(file)")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == contentType)
        #expect(response.header("Content-Length") == String(expected.count))
        #expect(response.body == expected)
        await server.stop()
    }

    /// A fixture file as served to a client that sent `Host: 127.0.0.1`: `{{origin}}` replaced in XML and text.
    static func served(_ path: String) throws -> [UInt8] {
        let bytes = try Fixtures.bytes(path)
        guard path.hasSuffix(".xml") || path.hasSuffix(".txt") else { return bytes }
        return Array(
            String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "{{origin}}", with: "http://127.0.0.1").utf8
        )
    }

    @Test("{{origin}} becomes the request's origin; files carry an ETag and answer If-None-Match with 304")
    func originAndValidators() async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/sitemap.xml")
        let response = try connection.readResponse()
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains("{{origin}}") && text.contains("<loc>http://127.0.0.1/recipes/</loc>"))
        let etag = try #require(response.header("ETag"))
        try connection.sendRequest("/sitemap.xml", extraHeaders: ["If-None-Match: \(etag)"])
        let again = try connection.readResponse(forHead: true)
        #expect(again.status == 304 && again.header("ETag") == etag)
        try connection.sendRequest("/sitemap.xml", extraHeaders: ["If-None-Match: \"other\""])
        #expect(try connection.readResponse().status == 200)
        await server.stop()
    }

    @Test("A directory path serves its index.html, with or without the trailing slash")
    func directoryIndex() async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        let index = try Fixtures.bytes("sites/example/recipes/index.html")
        for path in ["/recipes/", "/recipes"] {
            try connection.sendRequest(path)
            let response = try connection.readResponse()
            #expect(response.status == 200, "\(path)")
            #expect(response.body == index, "\(path)")
        }
        await server.stop()
    }

    @Test(
        "Missing files, climbing out of the site, and no site at all are 404",
        arguments: ["/missing.html", "/../Package.swift", "/recipes/%2e%2e/%2e%2e/README.md", "/%zz"]
    )
    func notFound(path: String) async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest(path)
        #expect(try connection.readResponse().status == 404)
        await server.stop()
    }

    @Test("A server without a site answers 404 for every path")
    func noSite() async throws {
        let server = try await FixtureServer.start()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/")
        #expect(try connection.readResponse().status == 404)
        await server.stop()
    }

    @Test("HEAD gets the GET headers and no body; the connection stays usable")
    func head() async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/robots.txt", method: "HEAD")
        let head = try connection.readResponse(forHead: true)
        let robots = try Self.served("sites/example/robots.txt")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String(robots.count))
        #expect(head.body.isEmpty)

        // Had the server sent a body after the HEAD response, it would show up here in place of the next head.
        try connection.sendRequest("/robots.txt")
        #expect(try connection.readResponse().body == robots)
        await server.stop()
    }

    @Test("Methods other than GET and HEAD on site files get 405 with Allow")
    func methodNotAllowed() async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        let response = try connection.readResponse()
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
        let logged = try #require(await server.requests().first)
        #expect(logged.body == Array("abc".utf8))
        await server.stop()
    }

    @Test("Starting with a site that does not exist throws")
    func missingSite() async throws {
        await #expect(throws: FixtureServerError.self) {
            _ = try await FixtureServer.start(site: "no-such-site")
        }
    }

    @Test("Fixtures.root finds the repository's Fixtures folder")
    func fixturesRoot() {
        #expect(Fixtures.root.lastPathComponent == "Fixtures")
        #expect(Fixtures.site("example").path.hasSuffix("Fixtures/sites/example"))
    }
}
