import FixtureServer
import Foundation
import Testing

/// `serve`'s HTTP as clients other than a browser use it: errors in SPEC §6's shape everywhere, what the
/// search page echoes, and health on a broken store.
@Suite("serve's HTTP: JSON errors, echoed queries, health")
struct ServeHTTPTests {
    @Test("a path no route serves and an empty item are JSON errors; control characters in q are not echoed raw")
    func errorsAndEchoes() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(fixture.storeArguments)
        for path in ["/no/such/path", "/api/items/", "/api/nothing?q=1"] {
            let answer = try await server.request(path)
            #expect(answer.status == 404 || answer.status == 400, "\(path)")
            let error = try #require(try jsonObject(answer.body)["error"] as? [String: Any], "\(path)")
            #expect((error["message"] as? String)?.isEmpty == false, "\(path)")
            #expect(answer.headers["x-content-type-options"] == "nosniff", "\(path)")
            #expect(answer.headers["content-type"] == "application/json", "\(path)")
        }
        let hostile = "lemon\u{0}\u{1B}[2J\u{7}\u{9B}\u{202E}evil"
        let page = try await server.request("/?q=" + hostile.urlQueryEncoded)
        #expect(page.status == 200)
        for raw in ["\u{0}", "\u{1B}", "\u{7}", "\u{9B}", "\u{202E}"] {
            #expect(!page.body.contains(raw), "\(raw.unicodeScalars.first!.value) echoed raw")
        }
        #expect(page.body.contains("\\u{1B}[2J") && page.body.contains("\\u{202E}evil"))
        #expect(page.body.contains("value=\"lemon[2Jevil\""))
        #expect(await server.stop() == 0)
    }

    @Test("health reads what searches read: a store overwritten with random bytes is 503, and so is /report")
    func healthOfCorruptStore() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(fixture.storeArguments)
        #expect(try await server.request("/healthz").status == 200)
        #expect(try await server.request("/report").status == 200)
        // Overwritten in place, as a failing disk or a stray process would: the server keeps its descriptors.
        let path = fixture.store.argument
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: noise)
        try handle.synchronize()
        try handle.close()

        let health = try await server.request("/healthz")
        #expect(health.status == 503)
        #expect(try await server.request("/api/search?q=lemon").status == 503)
        let report = try await server.request("/report")
        #expect(report.status == 503)
        #expect(try jsonObject(report.body)["error"] != nil)
        #expect(report.headers["x-content-type-options"] == "nosniff")
        #expect(await server.stop() == 0)
    }
}
