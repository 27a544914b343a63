import FixtureServer
import Foundation
import Testing

@Suite("searchlight fetch")
struct FetchCommandTests {
    @Test("--json reports status, headers, timings and the redirect chain")
    func json() async throws {
        let server = try await FixtureServer.start(site: "example")
        await server.setBehaviour(.redirect(status: 301, location: "/about.html"), for: "/old")
        let outcome = try await CommandRunner.run(["fetch", "--json", "--allow-private-network", server.url("/old")])
        await server.stop()
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(report["status"] as? Int == 200)
        #expect(report["finalURL"] as? String == server.url("/about.html"))
        let hops = try #require(report["redirects"] as? [[String: Any]])
        #expect(hops.map { $0["status"] as? Int } == [301, 200])
        #expect((report["timings"] as? [String: Any])?["total"] as? Double ?? 0 > 0)
        #expect((report["headers"] as? [[String: Any]])?.isEmpty == false)
        #expect(report["remoteAddress"] as? String == "127.0.0.1")
    }

    @Test("Loopback is refused without --allow-private-network, exit 1")
    func refusedByDefault() async throws {
        let server = try await FixtureServer.start(site: "example")
        let outcome = try await CommandRunner.run(["fetch", "--json", server.url("/")])
        #expect(await server.totalConnections() == 0)
        await server.stop()
        #expect(outcome.status == 1)
        let report = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((report["error"] as? [String: Any])?["kind"] as? String == "addressNotAllowed")
    }

    @Test(
        "Usage errors exit 2",
        arguments: [
            ["fetch"],
            ["fetch", "--header", "no colon", "http://127.0.0.1/"],
            ["fetch", "--concurrency", "0", "http://127.0.0.1/"],
            ["fetch", "--timeout", "1e300", "http://127.0.0.1/"],
            ["fetch", "--connect-timeout", "nan", "http://127.0.0.1/"],
            ["fetch", "--no-such-flag", "http://127.0.0.1/"],
        ])
    func usage(arguments: [String]) async throws {
        let outcome = try await CommandRunner.run(arguments)
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(!outcome.standardError.isEmpty)
    }

    @Test("A URL list fetches every URL, prints one line each and a summary; failures make exit 1")
    func bulk() async throws {
        let server = try await FixtureServer.start(site: "example")
        await server.setBehaviour(.closeWithoutResponse, for: "/broken")
        let urls = ["/", "/about.html", "/missing", "/broken", "/contact.html"].map { server.url($0) }
        let outcome = try await CommandRunner.run(
            ["fetch", "--json", "--allow-private-network", "--input", "-"], standardInput: urls.joined(separator: "\n"))
        await server.stop()
        #expect(outcome.status == 1)
        let reports = try outcome.standardOutput.split(separator: "\n").map { try jsonObject($0) }
        #expect(Set(reports.compactMap { $0["url"] as? String }) == Set(urls))
        let byURL = Dictionary(uniqueKeysWithValues: reports.map { ($0["url"] as? String ?? "", $0) })
        #expect(byURL[server.url("/missing")]?["status"] as? Int == 404)
        #expect((byURL[server.url("/broken")]?["error"] as? [String: Any])?["kind"] as? String == "emptyReply")
        #expect(outcome.standardError.contains("fetched 5 URLs"))
        #expect(outcome.standardError.contains("4 responses, 1 failed"))
    }

    @Test("Conditional flags send validators; --output writes the body")
    func conditionalAndOutput() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(
            .conditional(body: Array("<p>v1</p>".utf8), etag: "\"v1\"", lastModified: "Tue, 15 Oct 2024 08:00:00 GMT"),
            for: "/doc")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-body-\(UUID()).html")
        defer { try? FileManager.default.removeItem(at: file) }
        let full = try await CommandRunner.run(
            ["fetch", "--allow-private-network", "--output", file.path, server.url("/doc")])
        #expect(full.status == 0)
        #expect(full.standardOutput.contains("HTTP/1.1 200"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "<p>v1</p>")
        let conditional = try await CommandRunner.run(
            ["fetch", "--json", "--allow-private-network", "--if-none-match", "\"v1\"", server.url("/doc")])
        await server.stop()
        #expect(
            try jsonObject(conditional.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["status"] as? Int
                == 304)
    }
}
