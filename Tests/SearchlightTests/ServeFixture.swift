import FixtureServer
import Foundation
import Testing

/// A SQLite store with published activities and a donation token, for the tests of `serve`'s limits, and
/// the helpers those tests share: blocking socket work on a thread of its own, a bounded wait for a stop,
/// the server's child processes.
struct ServeFixture: Sendable {
    let store: WorkersTestStore
    let token: String

    /// `--store` and its value.
    var storeArguments: [String] { ["--store", store.argument] }

    /// The bundle the token may donate for.
    static let bundle = ServeCommandTests.bundle

    /// A new store with `count` published activities titled "Lemon tart N", each with a description of
    /// `descriptionBytes` bytes (large answers for the clients that do not read), and a token.
    static func make(items count: Int = 3, descriptionBytes: Int = 40) async throws -> ServeFixture {
        let store = try await WorkersTestStore.make(.sqlite)
        let filler = String(repeating: "lemon zest and sugar ", count: max(1, descriptionBytes / 21))
        let lines = try (1...count).map { number in
            try activity(String(number), title: "Lemon tart \(number)", description: filler)
        }
        let arguments = ["--store", store.argument]
        let imported = try await CommandRunner.run(
            ["import", "-", "--engagement-threshold", "1"] + arguments, standardInput: lines.joined(separator: "\n"))
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try await CommandRunner.run(["publish"] + arguments).status == 0)
        let created = try await CommandRunner.run(["token", "create", "--bundle", bundle] + arguments)
        let token = try #require(created.standardOutput.split(separator: "\n").last.map(String.init))
        return ServeFixture(store: store, token: token)
    }

    /// A public activity donation of ``bundle`` with a content description.
    static func activity(_ id: String, title: String, description: String) throws -> String {
        let object: [String: Any] = [
            "type": "userActivity", "bundleIdentifier": bundle, "donor": "device-\(id)",
            "activityType": "\(bundle).view", "title": title, "userInfo": ["id": id], "requiredUserInfoKeys": ["id"],
            "isEligibleForSearch": true, "isEligibleForPublicIndexing": true,
            "contentAttributeSet": ["contentDescription": description],
        ]
        return String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A donation request's head with `Content-Length: length`, with or without a token.
    static func donationHead(length: Int, token: String?) -> String {
        var lines = ["POST /api/donations HTTP/1.1", "Host: 127.0.0.1", "Content-Length: \(length)"]
        if let token { lines.append("Authorization: Bearer \(token)") }
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    func cleanUp() {
        store.cleanUp()
    }
}

extension ServeProcess {
    /// The port the server listens on.
    var port: UInt16 {
        UInt16(base.split(separator: ":").last.flatMap { Int($0) } ?? 0)
    }

    /// Sends SIGTERM and returns the exit status, or `nil` (the process then killed) when it has not exited
    /// within `timeout`: a hang guard, not a measure.
    func stop(within timeout: Duration) async -> Int32? {
        process.terminate()
        return await waitForExit(within: timeout)
    }

    /// The exit status, or `nil` (the process then killed) when it has not exited within `timeout`.
    func waitForExit(within timeout: Duration) async -> Int32? {
        let process = process
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await process.waitForExit() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if first == nil { process.kill() }
            await group.waitForAll()
            return first
        }
        return status
    }

    /// Waits until the server's standard error contains `text`, for at most `timeout`; returns whether it did.
    func waitForLog(_ text: String, timeout: Duration = .seconds(60)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if process.standardError.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process.standardError.contains(text)
    }

    /// The value of the metric line that starts with `prefix` (name and labels), or `nil`.
    func metric(_ prefix: String) async throws -> Double? {
        let text = try await request("/metrics").body
        let line = text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// The ids of the server's child processes (a publish under way).
    var childProcesses: [Int32] {
        let parent = process.processIdentifier
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (name) ": state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }
}

/// Runs `body`, which blocks (raw sockets, pauses between trickled bytes), on a thread of its own, so the
/// cooperative pool that runs the other tests is never held; returns what `body` returns.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Whether the process `pid` exists (and is not a zombie).
func processIsRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
}
