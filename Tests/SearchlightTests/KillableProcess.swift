import Foundation

/// A child process started in the background, to be killed mid-run. Its output goes to
/// /dev/null (nothing to drain); its exit is awaited through `terminationHandler`, never by
/// blocking a thread of the cooperative pool.
final class KillableProcess: @unchecked Sendable {
    // @unchecked: `process` is only started in init, then signalled (thread-safe) and awaited.
    private let process = Process()
    private let exit = AsyncStream<Int32>.makeStream()

    init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let continuation = exit.continuation
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        try process.run()
    }

    /// Sends SIGKILL: no handler runs, nothing is flushed, as with `kill -9`.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// The exit status (for a signal, the signal number, as Foundation reports it).
    func waitForExit() async -> Int32 {
        for await status in exit.stream { return status }
        return -1
    }
}
