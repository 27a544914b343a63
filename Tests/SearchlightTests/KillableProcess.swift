import Foundation

/// A child process started in the background, to be killed or interrupted mid-run. Its standard
/// output and standard error go to temporary files (nothing to drain while it runs);
/// its exit is awaited through `terminationHandler`, never by blocking a thread of the cooperative pool.
final class KillableProcess: @unchecked Sendable {
    // @unchecked: `process` is only started in init, then signalled (thread-safe) and awaited.
    private let process = Process()
    private let exit = AsyncStream<Int32>.makeStream()
    private let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
    private let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")

    init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        let continuation = exit.continuation
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        try process.run()
    }

    /// The process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGKILL: no handler runs, nothing is flushed, as with `kill -9`.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() {
        Foundation.kill(process.processIdentifier, SIGINT)
    }

    /// Sends SIGTERM, as a service manager does to stop a service.
    func terminate() {
        Foundation.kill(process.processIdentifier, SIGTERM)
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

    /// The exit status (for a signal, the signal number, as Foundation reports it).
    func waitForExit() async -> Int32 {
        for await status in exit.stream { return status }
        return -1
    }
}
