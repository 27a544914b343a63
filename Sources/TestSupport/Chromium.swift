import Foundation

/// Debian's headless Chromium, run as a child process for render checks in tests. CI gets it from
/// `Scripts/bootstrap.sh --test`; it is not part of the machine's base image.
///
/// Nothing here blocks a thread of the cooperative pool: the exit is awaited through
/// `terminationHandler`, and output goes to files rather than pipes (no drain needed).
package struct Chromium: Sendable {
    /// Chromium ran but exited with a failure status.
    package struct Failure: Error, CustomStringConvertible {
        /// The exit status.
        package var status: Int32
        /// `chromium … exited with N`.
        package var description: String { "chromium exited with \(status)" }
    }

    /// The executable.
    package let executable: URL

    /// What a failing test says when Chromium is missing (instead of silently passing).
    package static let missingMessage =
        "chromium is not installed: the HTML render checks need Debian's chromium (Scripts/bootstrap.sh --test installs it)"

    /// Finds `chromium` on `PATH` (then `/usr/bin`), or nil.
    package static func locate() -> Chromium? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin"]
        for folder in folders {
            for name in ["chromium", "chromium-browser"] {
                let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return Chromium(executable: candidate)
                }
            }
        }
        return nil
    }

    /// The page's DOM after load, as Chromium serializes it (`--dump-dom`), scripts enabled.
    package func dumpDOM(of page: URL, in folder: URL) async throws -> String {
        let output = folder.appendingPathComponent("dom-\(UUID().uuidString).html")
        let status = try await run(["--dump-dom", page.absoluteString], standardOutput: output, in: folder)
        guard status == 0 else { throw Failure(status: status) }
        return try String(contentsOf: output, encoding: .utf8)
    }

    /// Renders the page to a PNG of the given window size and returns the PNG's bytes.
    package func screenshot(of page: URL, to png: URL, width: Int, height: Int, in folder: URL) async throws -> Data {
        let log = folder.appendingPathComponent("screenshot-\(UUID().uuidString).log")
        let status = try await run(
            ["--screenshot=\(png.path)", "--window-size=\(width),\(height)", "--hide-scrollbars", page.absoluteString],
            standardOutput: log, in: folder)
        guard status == 0 else { throw Failure(status: status) }
        return try Data(contentsOf: png)
    }

    /// Runs Chromium headless with its own throwaway profile, killing it after `timeout`.
    private func run(
        _ arguments: [String], standardOutput: URL, in folder: URL, timeout: Duration = .seconds(90)
    ) async throws -> Int32 {
        let profile = folder.appendingPathComponent("profile-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: standardOutput.path, contents: nil)
        let outputHandle = try FileHandle(forWritingTo: standardOutput)
        defer { try? outputHandle.close() }
        // --no-sandbox: the tests run as root here, where Chromium's sandbox refuses to start.
        // No network is reachable anyway; the resolver rule makes sure no lookup is even tried, and leaves
        // loopback to the pages a test serves itself. A D-Bus complaint on standard error is harmless: it goes
        // to /dev/null, out of the test log.
        let child = try RunningChild(
            [
                executable.path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                "--user-data-dir=\(profile.path)",
            ] + arguments, directory: folder, output: outputHandle.fileDescriptor)
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            child.send(SIGTERM)
        }
        defer { watchdog.cancel() }
        return await child.waitForExit()
    }
}
