import FixtureServer
import Foundation

/// The `searchlight` command lines of the shared-store tests.
struct SharedStoreCommands {
    var server: FixtureServer
    var donations: String

    func crawl(store: String) -> [String] {
        ["crawl", server.url("/"), "--store", store, "--allow-private-network", "--delay", "0", "--json"]
    }

    func importFile(store: String) -> [String] { ["import", donations, "--store", store, "--json"] }

    func publish(store: String) -> [String] { ["publish", "--store", store, "--json"] }

    /// Crawl, import, publish: the order in which the result cannot depend on timing.
    func sequential(store: String) -> [(String, [String])] {
        [("crawl", crawl(store: store)), ("import", importFile(store: store)), ("publish", publish(store: store))]
    }
}

/// One finished run of the executable, placed on the test's clock.
struct TimedRun: Sendable {
    var name: String
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// Seconds from the timeline's origin.
    var start: Double
    var end: Double

    /// `name 0.00–1.23 s`.
    var summary: String { String(format: "%@ %.2f–%.2f s", name, start, end) }
}

/// Runs commands and records when each started and ended, relative to one origin.
struct Timeline: Sendable {
    let origin = ContinuousClock.now

    func run(_ name: String, _ arguments: [String]) async throws -> TimedRun {
        let start = seconds()
        let outcome = try await CommandRunner.run(arguments)
        return TimedRun(
            name: name, status: outcome.status, standardOutput: outcome.standardOutput,
            standardError: outcome.standardError, start: start, end: seconds())
    }

    /// Two publishes one after the other, the first after a second: while the import writes.
    func publishTwice(_ arguments: [String]) async throws -> [TimedRun] {
        try await Task.sleep(for: .seconds(1))
        let first = try await run("publish 1", arguments)
        try await Task.sleep(for: .seconds(1))
        return [first, try await run("publish 2", arguments)]
    }

    private func seconds() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
