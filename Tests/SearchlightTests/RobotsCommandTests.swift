import FixtureServer
import Foundation
import Testing

@Suite("searchlight robots, and the robots and universal-link checks of validate")
struct RobotsCommandTests {
    static var robotsFile: String { Fixtures.site("crawl").appendingPathComponent("robots.txt").path }

    @Test(
        "exit 0 when allowed, 1 when disallowed, naming the group and rule",
        arguments: [
            ("Applebot", "https://example.org/private/secret.html", Int32(1), "Disallow: /private/"),
            ("Applebot", "https://example.org/private/open.html", Int32(0), "Allow: /private/open.html"),
            ("Applebot/0.1 (+https://example.org/bot)", "/a.html", Int32(0), "no rule matches"),
            ("OtherBot", "/a.html", Int32(1), "Disallow: /"),
            ("OtherBot", "/robots.txt", Int32(0), "everything is allowed"),
        ])
    func decisions(userAgent: String, url: String, status: Int32, rule: String) async throws {
        let outcome = try await CommandRunner.run([
            "robots", "--robots-file", Self.robotsFile, "--user-agent", userAgent, url,
        ])
        #expect(outcome.status == status, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains(rule), "\(outcome.standardOutput)")
    }

    @Test("--json gives the decision, group and rule; usage errors exit 2, unreadable files 3")
    func json() async throws {
        let outcome = try await CommandRunner.run([
            "robots", "--robots-file", Self.robotsFile, "--json", "https://example.org/private/x",
        ])
        #expect(outcome.status == 1)
        let object = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(object["allowed"] as? Bool == false)
        #expect((object["group"] as? String)?.lowercased() == "googlebot")
        #expect((object["rule"] as? [String: Any])?["line"] as? Int == 4)
        #expect(try await CommandRunner.run(["robots", "https://example.org/"]).status == 2)
        #expect(
            try await CommandRunner.run(["robots", "--robots-file", "/no/such/robots.txt", "/"]).status == 3)
    }

    @Test("validate reports the robots decision and the universal-link verdict")
    func validate() async throws {
        let server = try await FixtureServer.start(site: "crawl")
        let disallowed = try await CommandRunner.run([
            "validate", server.url("/private/secret.html"), "--allow-private-network",
            "--plain-http-app-site-association",
        ])
        #expect(disallowed.status == 1)
        #expect(disallowed.standardOutput.contains("FAIL robots: disallowed for Applebot"))
        #expect(disallowed.standardOutput.contains("Disallow: /private/"))
        #expect(disallowed.standardOutput.contains("WARN universalLinks"))  // excluded by the components

        let claimed = try await CommandRunner.run([
            "validate", server.url("/a.html"), "--allow-private-network", "--plain-http-app-site-association",
            "--json",
        ])
        let report = try jsonObject(claimed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let checks = try #require(report["checks"] as? [[String: Any]])
        let universal = try #require(checks.first { $0["name"] as? String == "universalLinks" })
        #expect(universal["status"] as? String == "pass")
        #expect((universal["message"] as? String)?.contains("ABCDE12345.org.example.crawl") == true)
        let links = (report["item"] as? [String: Any])?["deepLinks"] as? [[String: Any]] ?? []
        #expect(links.contains { $0["kind"] as? String == "universalLink" })

        await server.setBehaviour(
            .text("{\"applinks\": {\"details\": 7}}"), for: "/.well-known/apple-app-site-association")
        let broken = try await CommandRunner.run([
            "validate", server.url("/a.html"), "--allow-private-network", "--plain-http-app-site-association",
        ])
        #expect(broken.standardOutput.contains("FAIL universalLinks: apple-app-site-association:"))
        #expect(broken.status == 1)
        await server.stop()
    }
}
