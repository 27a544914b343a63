import FixtureServer
import Foundation
import TestSupport
import Testing

/// `searchlight serve` on a real store of each engine, through HTTP as a client and an app use it: every
/// endpoint of SPEC §6 against the command line's own answers, the refusals (401, 403, 413) and that a
/// refused body wrote nothing, donations searchable after the server's own publish, escaped HTML, the
/// metrics, and a clean stop on SIGTERM.
@Suite("serve answers as the command line does, on either engine")
struct ServeCommandTests {
    static let bundle = "com.example.serve"

    /// A public activity donation of `bundle` (threshold 1 makes it publishable at once).
    static func activity(_ id: String, title: String, bundle: String = bundle) throws -> String {
        let object: [String: Any] = [
            "type": "userActivity", "bundleIdentifier": bundle, "donor": "device-\(id)",
            "activityType": "\(bundle).view", "title": title, "userInfo": ["id": id], "requiredUserInfoKeys": ["id"],
            "keywords": ["serve"], "isEligibleForSearch": true, "isEligibleForPublicIndexing": true,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        "every endpoint, the refusals, donations published by the server, escaping, metrics, SIGTERM",
        arguments: StoreEngine.allCases)
    func endpoints(engine: StoreEngine) async throws {
        let store = try await WorkersTestStore.make(engine)
        defer { store.cleanUp() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let seed = folder.appendingPathComponent("seed.jsonl")
        try [
            try Self.activity("1", title: "Lemon tart"), try Self.activity("2", title: "Lemon curd"),
            try Self.activity("3", title: "Plum cake"),
        ].joined(separator: "\n").write(to: seed, atomically: true, encoding: .utf8)
        let storeArguments = ["--store", store.argument]
        #expect(
            try await CommandRunner.run(["import", seed.path, "--engagement-threshold", "1"] + storeArguments).status
                == 0)
        #expect(try await CommandRunner.run(["publish"] + storeArguments).status == 0)
        let created = try await CommandRunner.run(["token", "create", "--bundle", Self.bundle] + storeArguments)
        #expect(created.status == 0)
        let token = try #require(created.standardOutput.split(separator: "\n").last.map(String.init))
        let other = try await CommandRunner.run(["token", "create", "--bundle", "com.example.other"] + storeArguments)
        let otherToken = try #require(other.standardOutput.split(separator: "\n").last.map(String.init))

        let server = try await ServeProcess(storeArguments + ["--publish-interval", "0.3", "--max-body-bytes", "4096"])

        // Health, search and the report equal the command line's answers.
        let health = try await server.request("/healthz")
        #expect(health.status == 200 && health.body == "ok\n")
        #expect(health.headers["searchlight-index-generation"].flatMap { Int($0) } ?? 0 >= 1, "\(health.headers)")
        let cli = try await CommandRunner.run(["search", "lemon", "--json"] + storeArguments)
        let api = try await server.request("/api/search?q=lemon")
        #expect(api.status == 200)
        #expect(api.headers["content-type"] == "application/json")
        #expect(api.body + "\n" == cli.standardOutput)
        let query = try await server.request("/api/search?query=" + "title == \"Plum*\"c".urlQueryEncoded)
        #expect(try jsonObject(query.body)["total"] as? Int == 1)
        let report = try await CommandRunner.run(["report", "--format", "json"] + storeArguments)
        #expect(try await server.request("/api/report").body == report.standardOutput)

        // Usage errors are 400 in SPEC §6's shape; a query syntax error names its column.
        let syntax = try await server.request("/api/search?query=" + "title ==".urlQueryEncoded)
        #expect(syntax.status == 400)
        let error = try #require(try jsonObject(syntax.body)["error"] as? [String: Any])
        #expect(error["column"] as? Int == 9)
        #expect(try await server.request("/api/search").status == 400)
        #expect(try await server.request("/api/search?q=lemon&limit=0").status == 400)

        // An item by its identifier, percent-encoded, as export writes it; 404 for none.
        let exported = try await CommandRunner.run(["export"] + storeArguments).standardOutput
            .split(separator: "\n").map(String.init)
        let plum = try #require(exported.first { $0.contains("Plum cake") })
        let plumID = try #require(try jsonObject(plum)["uniqueIdentifier"] as? String)
        let item = try await server.request("/api/items/" + plumID.pathSegmentEncoded)
        #expect(item.status == 200 && item.body == plum)
        #expect(try await server.request("/api/items/" + "no such item".pathSegmentEncoded).status == 404)

        // Donations: 401 without or with a bad token, 403 for another bundle (nothing written), 413 over the
        // limit, then 200 and searchable after the server's publish.
        let activitiesBefore = try await store.lines("SELECT count(*) FROM activity")
        let quince = try Self.activity("4", title: "Quince jelly")
        let body = Data((quince + "\nnot json\n").utf8)
        #expect(try await server.request("/api/donations", method: "POST", body: body).status == 401)
        let forged = token.dropLast() + (token.hasSuffix("A") ? "B" : "A")
        #expect(
            try await server.request(
                "/api/donations", method: "POST", body: body, headers: ["Authorization": "Bearer \(forged)"]
            ).status == 401)
        let fig = try Self.activity("5", title: "Fig roll")
        let evil = try Self.activity("6", title: "Evil", bundle: "com.example.other")
        let lines = [fig, evil]
        let mixed = Data(lines.joined(separator: "\n").utf8)
        let refused = try await server.request(
            "/api/donations", method: "POST", body: mixed, headers: ["Authorization": "Bearer \(token)"])
        #expect(refused.status == 403)
        #expect(refused.body.contains("com.example.other"))
        // A line naming another bundle is refused whole even when that line is invalid on its own.
        let invalidForeign = #"{"type":"userActivity","bundleIdentifier":"com.example.other"}"#
        let refusedInvalid = try await server.request(
            "/api/donations", method: "POST", body: Data((fig + "\n" + invalidForeign).utf8),
            headers: ["Authorization": "Bearer \(token)"])
        #expect(refusedInvalid.status == 403)
        let tooLarge = try await server.request(
            "/api/donations", method: "POST", body: Data(repeating: 0x20, count: 5000),
            headers: ["Authorization": "Bearer \(token)"])
        #expect(tooLarge.status == 413)
        #expect(try await store.lines("SELECT count(*) FROM activity") == activitiesBefore)
        let accepted = try await server.request(
            "/api/donations", method: "POST", body: body, headers: ["Authorization": "Bearer \(token)"])
        #expect(accepted.status == 200)
        let summary = try jsonObject(accepted.body)
        #expect(summary["read"] as? Int == 2 && summary["imported"] as? Int == 1)
        let rejected = try #require(summary["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1 && rejected.first?["line"] as? Int == 2)
        let found = try await server.poll("/api/search?q=quince") { answer in
            (try? jsonObject(answer.body)["total"] as? Int) == 1
        }
        #expect(try jsonObject(found.body)["total"] as? Int == 1)
        // The report follows the server's publish: written again for it, still the command line's bytes.
        let republished = try await CommandRunner.run(["report", "--format", "json"] + storeArguments)
        #expect(republished.standardOutput != report.standardOutput)
        #expect(try await server.request("/api/report").body == republished.standardOutput)
        // The other token may not donate for this bundle, and a revoked token is refused.
        #expect(
            try await server.request(
                "/api/donations", method: "POST", body: body, headers: ["Authorization": "Bearer \(otherToken)"]
            ).status == 403)
        let tokenID = String(token.split(separator: "_")[1])
        #expect(try await CommandRunner.run(["token", "revoke", tokenID] + storeArguments).status == 0)
        #expect(
            try await server.request(
                "/api/donations", method: "POST", body: body, headers: ["Authorization": "Bearer \(token)"]
            ).status == 401)

        // The HTML pages escape what they echo and forbid scripts.
        let hostile = "<script>alert(1)</script> lemon"
        let page = try await server.request("/?q=" + hostile.urlQueryEncoded)
        #expect(page.status == 200)
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        #expect(!page.body.contains("<script>"))
        #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt; lemon"))
        let results = try await server.request("/?q=lemon")
        #expect(results.body.contains("Lemon tart") && results.body.contains("class=\"card\""))
        let reportPage = try await server.request("/report")
        #expect(reportPage.status == 200 && reportPage.headers["content-type"]?.hasPrefix("text/html") == true)

        // Metrics: requests by route and status, search latency, donations, the server's publish.
        let metrics = try await server.request("/metrics")
        #expect(
            metrics.body.contains(
                #"hb_requests{http_route="/api/search",http_request_method="GET",http_response_status_code="400"} 3"#))
        #expect(
            metrics.body.contains(
                #"http_route="/api/donations",http_request_method="POST",http_response_status_code="401"} 3"#))
        #expect(
            metrics.body.contains(
                #"http_route="/api/donations",http_request_method="POST",http_response_status_code="403"} 3"#))
        #expect(metrics.body.contains("searchlight_search_duration_seconds_count"))
        #expect(metrics.body.contains("searchlight_donations_imported_total 1"))
        let published = metrics.body.split(separator: "\n").first {
            $0.hasPrefix("searchlight_last_publish_timestamp_seconds ")
        }
        #expect(published.flatMap { Double($0.split(separator: " ")[1]) }.map { $0 > 0 } == true)

        #expect(await server.stop() == 0)
    }
}

@Suite("serve's edges: bad parameters, headers on errors, the last interval's donations, no store")
struct ServeEdgeTests {
    @Test(
        "a parameter that is not percent-encoding is a 400 with the security headers; SIGTERM publishes what arrived; no store is exit 3"
    )
    func edges() async throws {
        let store = try await WorkersTestStore.make(.sqlite)
        defer { store.cleanUp() }
        let storeArguments = ["--store", store.argument]
        let seed = try ServeCommandTests.activity("1", title: "Lemon tart")
        #expect(
            try await CommandRunner.run(
                ["import", "-", "--engagement-threshold", "1"] + storeArguments, standardInput: seed
            ).status == 0)
        #expect(try await CommandRunner.run(["publish"] + storeArguments).status == 0)
        let created = try await CommandRunner.run(
            ["token", "create", "--bundle", ServeCommandTests.bundle] + storeArguments)
        let token = try #require(created.standardOutput.split(separator: "\n").last.map(String.init))
        // A publish interval longer than the test: only the stop can publish the donation.
        let server = try await ServeProcess(storeArguments + ["--publish-interval", "600"])
        let bad = try await server.request("/api/search?q=%FF")  // not UTF-8 once decoded
        #expect(bad.status == 400)
        #expect(try jsonObject(bad.body)["error"] != nil)
        #expect(bad.headers["x-content-type-options"] == "nosniff")
        let body = Data(try ServeCommandTests.activity("2", title: "Rhubarb crumble").utf8)
        let posted = try await server.request(
            "/api/donations", method: "POST", body: body, headers: ["Authorization": "Bearer \(token)"])
        #expect(posted.status == 200)
        #expect(try jsonObject(try await server.request("/api/search?q=rhubarb").body)["total"] as? Int == 0)
        #expect(await server.stop() == 0)
        let found = try await CommandRunner.run(["search", "rhubarb", "--json"] + storeArguments)
        #expect(found.status == 0, "the donation of the last interval was not published at the stop")
        let missing = try await CommandRunner.run(["serve", "--store", store.argument + ".missing", "--port", "0"])
        #expect(missing.status == 3)
        #expect(missing.standardError.contains("no store"))
    }
}

@Suite("serve's HTML pages in headless Chromium")
struct ServePageRenderTests {
    @Test("the search page and the report render real cards; hostile titles and queries stay text")
    func pagesRender() async throws {
        let chromium = try #require(Chromium.locate(), Comment(rawValue: Chromium.missingMessage))
        let store = try await WorkersTestStore.make(.sqlite)
        defer { store.cleanUp() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let seed = folder.appendingPathComponent("seed.jsonl")
        let hostile = "Lemon <img src=x onerror=alert(1)> tart"
        let lines = [
            try ServeCommandTests.activity("1", title: hostile),
            try ServeCommandTests.activity("2", title: "Lemon curd \u{202E}reversed"),
        ]
        try lines.joined(separator: "\n").write(to: seed, atomically: true, encoding: .utf8)
        let storeArguments = ["--store", store.argument]
        #expect(
            try await CommandRunner.run(["import", seed.path, "--engagement-threshold", "1"] + storeArguments).status
                == 0)
        #expect(try await CommandRunner.run(["publish"] + storeArguments).status == 0)
        let server = try await ServeProcess(storeArguments)
        let query = "lemon \"><script>alert(2)</script>"
        for (name, path) in [
            ("search", "/?q=lemon"), ("hostile-query", "/?q=" + query.urlQueryEncoded), ("report", "/report"),
        ] {
            let url = try #require(URL(string: server.base + path))
            let dom = try await chromium.dumpDOM(of: url, in: folder)
            #expect(dom.contains("<h1"), "\(name): not the page (an error page?)")
            #expect(!dom.contains("<script"), "\(name)")
            #expect(!dom.lowercased().contains("onerror=\""), "\(name): an event handler attribute")
            #expect(!dom.contains("<img"), "\(name)")
            let png = try await chromium.screenshot(
                of: url, to: folder.appendingPathComponent("\(name).png"), width: 900, height: 900, in: folder)
            #expect(png.count > 8192, "\(name): a blank render (\(png.count) bytes)")
            if name == "search" {
                #expect(dom.contains("class=\"card\""), "no preview card")
                #expect(dom.contains("Lemon &lt;img src=x onerror=alert(1)&gt; tart"))
            }
            if name == "hostile-query" {
                #expect(dom.contains("&lt;script&gt;alert(2)&lt;/script&gt;"))
            }
        }
        #expect(await server.stop() == 0)
    }
}

@Suite("token create, list and revoke")
struct TokenCommandTests {
    @Test(
        "the token is printed once, never stored or listed; revoke ends it; usage errors",
        arguments: StoreEngine.allCases)
    func lifecycle(engine: StoreEngine) async throws {
        let store = try await WorkersTestStore.make(engine)
        defer { store.cleanUp() }
        let storeArguments = ["--store", store.argument]
        let created = try await CommandRunner.run(
            ["token", "create", "--bundle", "com.example.b", "com.example.a"] + storeArguments)
        #expect(created.status == 0)
        let token = try #require(created.standardOutput.split(separator: "\n").last.map(String.init))
        #expect(token.hasPrefix("slt_"))
        let id = String(token.split(separator: "_")[1])
        let stored = try await store.lines("SELECT id, secret_hash FROM api_token")
        #expect(stored.count == 1)
        #expect(stored.first?.hasPrefix(id + "|") == true)
        #expect(stored.first?.contains(token.split(separator: "_", maxSplits: 2)[2]) == false)
        let listed = try await CommandRunner.run(["token", "list", "--json"] + storeArguments)
        #expect(listed.status == 0)
        #expect(!listed.standardOutput.contains(String(token.split(separator: "_", maxSplits: 2)[2])))
        let tokens = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
        #expect(tokens?.first?["bundles"] as? [String] == ["com.example.a", "com.example.b"])
        #expect(tokens?.first?["revokedAt"] is NSNull)
        #expect(try await CommandRunner.run(["token", "revoke", id] + storeArguments).status == 0)
        #expect(try await CommandRunner.run(["token", "revoke", id] + storeArguments).status == 1)
        #expect(try await CommandRunner.run(["token", "revoke", "0000000000000000"] + storeArguments).status == 1)
        let after = try await CommandRunner.run(["token", "list"] + storeArguments)
        #expect(after.standardOutput.contains("revoked"))
        #expect(try await CommandRunner.run(["token", "create"] + storeArguments).status == 2)
        #expect(try await CommandRunner.run(["token", "create", "--bundle", "a b"] + storeArguments).status == 2)
        #expect(try await CommandRunner.run(["serve", "--port", "70000"] + storeArguments).status == 2)
    }
}

extension String {
    /// The string as one query value (`application/x-www-form-urlencoded` without `+`).
    var urlQueryEncoded: String {
        addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? self
    }

    /// The string as one path segment: every reserved character, `/` included, percent-encoded.
    var pathSegmentEncoded: String {
        addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? self
    }
}
