import FixtureServer
import Foundation
import TestSupport

/// A child process started in the background, to be killed or interrupted mid-run. Its standard
/// output and standard error go to temporary files (nothing to drain while it runs); it runs as a
/// `RunningChild` (`posix_spawn`, not Foundation's `Process`, whose `run()` now and then crashes on this
/// toolchain), whose end a thread of its own waits for.
final class KillableProcess: Sendable {
    private let child: RunningChild
    private let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
    private let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")

    init(_ executable: URL, _ arguments: [String]) throws {
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        defer {
            try? output.close()
            try? error.close()
        }
        child = try RunningChild(
            [executable.path] + arguments, directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            output: output.fileDescriptor, error: error.fileDescriptor)
    }

    /// The process id.
    var processIdentifier: Int32 { child.pid }

    /// Sends SIGKILL: no handler runs, nothing is flushed, as with `kill -9`.
    func kill() {
        child.send(SIGKILL)
    }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() {
        child.send(SIGINT)
    }

    /// Sends SIGTERM, as a service manager does to stop a service.
    func terminate() {
        child.send(SIGTERM)
    }

    /// What the process printed to standard output (complete once it exited).
    var standardOutput: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    /// What the process printed to standard error (complete once it exited).
    var standardError: String {
        (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    deinit {
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
    }

    /// The exit status (for a signal, 128 + the signal number, as a shell reports it).
    func waitForExit() async -> Int32 {
        await child.waitForExit()
    }
}
