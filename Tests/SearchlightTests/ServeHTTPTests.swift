import FixtureServer
import Foundation
import Testing

/// `serve`'s HTTP over raw sockets, as clients other than a browser speak it: HTTP/1.0, HEAD on every
/// route, errors in SPEC §6's shape everywhere, what the search page echoes, and health on a broken store.
@Suite("serve's HTTP: HTTP/1.0, HEAD, JSON errors, echoed queries, health")
struct ServeHTTPTests {
    @Test("HTTP/1.0 closes after its answer unless it asks for keep-alive; every route answers HEAD as GET")
    func versionsAndHead() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        // A connection left open by mistake would outlast the client's 20 s wait.
        let server = try await ServeProcess(fixture.storeArguments + ["--idle-timeout", "120"])
        let port = server.port

        let plain = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
            try connection.sendRequest("/healthz", version: "HTTP/1.0")
            let answer = try connection.readResponse()
            let ending = try connection.readUntilClose().ending
            return "\(answer.version) \(answer.status) \(answer.text.count) \(ending == .closed)"
        }
        #expect(plain == "HTTP/1.0 200 3 true", "HTTP/1.0 without keep-alive: version, status, body, closed")

        let kept = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
            var seen: [String] = []
            for path in ["/healthz", "/api/search?q=lemon"] {
                try connection.sendRequest(path, version: "HTTP/1.0", extraHeaders: ["Connection: keep-alive"])
                let answer = try connection.readResponse()
                seen.append("\(answer.version) \(answer.status) \(answer.header("connection") ?? "-")")
            }
            return seen
        }
        #expect(kept == ["HTTP/1.0 200 keep-alive", "HTTP/1.0 200 keep-alive"])

        let exported = try await CommandRunner.run(["export"] + fixture.storeArguments).standardOutput
        let firstItem = try #require(exported.split(separator: "\n").first)
        let identifier = try #require(try jsonObject(firstItem)["uniqueIdentifier"] as? String)
        let paths = [
            "/", "/?q=lemon", "/healthz", "/api/search?q=lemon", "/api/report", "/report", "/metrics",
            "/api/items/" + identifier.pathSegmentEncoded, "/api/items/none", "/no/such/path",
        ]
        // HEAD, then GET, on one connection: a body after the HEAD answer would break the GET answer's parse.
        let pairs = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
            return try paths.map { path in
                try connection.sendRequest(path, method: "HEAD")
                let head = try connection.readResponse(forHead: true)
                try connection.sendRequest(path)
                let get = try connection.readResponse()
                return (
                    path: path, headStatus: head.status, getStatus: get.status,
                    headType: head.header("content-type") ?? "", getType: get.header("content-type") ?? "",
                    headLength: head.header("content-length"), getLength: get.body.count,
                    nosniff: head.header("x-content-type-options") == "nosniff"
                )
            }
        }
        for pair in pairs {
            #expect(pair.headStatus == pair.getStatus, "\(pair.path)")
            #expect(pair.headType == pair.getType, "\(pair.path)")
            #expect(pair.nosniff, "\(pair.path)")
            if pair.path != "/metrics" {  // its counters move between the two requests
                #expect(pair.headLength == String(pair.getLength), "\(pair.path)")
            }
        }
        #expect(await server.stop() == 0)
    }

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
