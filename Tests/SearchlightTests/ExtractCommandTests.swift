import FixtureServer
import Foundation
import Testing

@Suite("searchlight extract and validate")
struct ExtractCommandTests {
    @Test("extract --json prints the SPEC §6 object")
    func extractJSON() async throws {
        let outcome = try await CommandRunner.run([
            "extract", Fixtures.file("pages/markup/recipe.html").path, "--url",
            "https://example.com/recipes/lemon-tart",
            "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        for key in [
            "url", "title", "description", "canonicalURL", "robots", "openGraph", "twitter", "appLinks",
            "smartAppBanner", "jsonLD", "microdata", "rdfa", "links", "errors", "item",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["title"] as? String == "Lemon tart")
        #expect((object["robots"] as? [String: Any])?["index"] as? Bool == true)
        #expect(
            (object["openGraph"] as? [String: Any])?["og:image"] as? [String] == ["img/tart.jpg", "img/tart-2.jpg"])
        #expect((object["smartAppBanner"] as? [String: Any])?["appID"] as? String == "123456789")
        let item = try #require(object["item"] as? [String: Any])
        #expect(item["uniqueIdentifier"] as? String == "https://example.com/recipes/lemon-tart")
        #expect(item["sources"] as? [String] == ["web"])
        #expect((item["deepLinks"] as? [[String: Any]])?.first?["kind"] as? String == "smartAppBanner")
    }

    @Test("A directory is walked with paths mapped onto the URL; --require names the pages that miss parts")
    func directory() async throws {
        let site = Fixtures.site("example").path
        let all = try await CommandRunner.run(["extract", site, "--url", "https://recipes.example.com/", "--json"])
        #expect(all.status == 0, "\(all.standardError)")
        let urls = try all.standardOutput.split(separator: "\n").map { try jsonObject($0)["url"] as? String }
        #expect(urls.contains("https://recipes.example.com/"))
        #expect(urls.contains("https://recipes.example.com/recipes/lemon-tart.html"))
        #expect(urls.contains("https://recipes.example.com/recipes/"))
        let strict = try await CommandRunner.run([
            "extract", site, "--url", "https://recipes.example.com/", "--require", "title,deep-link,structured-data",
        ])
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("missing"))
        #expect(!strict.standardError.contains("lemon-tart.html: missing"))
    }

    @Test("extract reads standard input; bad --require and --url are usage errors")
    func stdinAndUsage() async throws {
        let html = "<html><head><title>From stdin</title></head></html>"
        let outcome = try await CommandRunner.run(
            ["extract", "-", "--url", "https://example.com/", "--json"], standardInput: html)
        #expect(
            try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["title"] as? String
                == "From stdin")
        #expect(
            try await CommandRunner.run(["extract", "-", "--url", "https://example.com/", "--require", "nope"]).status
                == 2)
        #expect(try await CommandRunner.run(["extract", "-", "--url", "ftp://example.com/"]).status == 2)
        #expect(
            try await CommandRunner.run(["extract", "/no/such/file.html", "--url", "https://example.com/"]).status == 2)
    }

    @Test("validate fetches, checks and writes the HTML card; a failing check exits 1")
    func validate() async throws {
        let server = try await FixtureServer.start(site: "example")
        await server.setBehaviour(.html("<html><head><title>Bare</title></head><body>x</body></html>"), for: "/bare")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID()).html")
        defer { try? FileManager.default.removeItem(at: file) }
        let good = try await CommandRunner.run([
            "validate", server.url("/recipes/lemon-tart.html"), "--allow-private-network", "--json", "--html",
            file.path,
        ])
        #expect(good.status == 0, "\(good.standardOutput)\(good.standardError)")
        let report = try jsonObject(good.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((report["appResult"] as? [String: Any])?["eligible"] as? Bool == true)
        #expect((report["preview"] as? [String: Any])?["title"] as? String != nil)
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(html.contains("class=\"card\""))
        #expect(html.contains("App result: eligible"))
        let bare = try await CommandRunner.run(["validate", server.url("/bare"), "--allow-private-network"])
        #expect(bare.status == 1)
        #expect(bare.standardOutput.contains("FAIL deepLink"))
        let refused = try await CommandRunner.run(["validate", server.url("/")])
        #expect(refused.status == 3)
        await server.stop()
    }
}
