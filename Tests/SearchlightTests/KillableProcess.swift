import FixtureServer
import Foundation

/// A child process started in the background, to be killed or interrupted mid-run. Its standard
/// output and standard error go to temporary files (nothing to drain while it runs); its exit is awaited
/// by `waitpid` on a thread of its own, never by blocking a thread of the cooperative pool.
///
/// Spawned with `posix_spawn` (`ChildProcess`), not Foundation's `Process`, whose `run()` on this
/// toolchain now and then crashes while it scans the test process's open descriptors
/// (swift-corelibs-foundation #5472).
final class KillableProcess: Sendable {
    private let pid: pid_t
    private let exit = AsyncStream<Int32>.makeStream()
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
        let pid = try ChildProcess.spawn(
            [executable.path] + arguments, environment: ProcessInfo.processInfo.environment,
            directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), input: nil,
            output: output.fileDescriptor, error: error.fileDescriptor)
        self.pid = pid
        let continuation = exit.continuation
        Thread {
            continuation.yield((try? ChildProcess.waitForExit(pid)) ?? -1)
            continuation.finish()
        }.start()
    }

    /// The process id.
    var processIdentifier: Int32 { pid }

    /// Sends SIGKILL: no handler runs, nothing is flushed, as with `kill -9`.
    func kill() {
        Foundation.kill(pid, SIGKILL)
    }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() {
        Foundation.kill(pid, SIGINT)
    }

    /// Sends SIGTERM, as a service manager does to stop a service.
    func terminate() {
        Foundation.kill(pid, SIGTERM)
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
        for await status in exit.stream { return status }
        return -1
    }
}
