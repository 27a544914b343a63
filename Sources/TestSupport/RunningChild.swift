import Foundation
import Synchronization

/// A program started with ``ChildProcess/spawn(_:environment:directory:input:output:error:)`` and not waited
/// for yet: a thread of its own blocks in `waitpid` for it, so no thread of the cooperative pool ever does,
/// and Foundation's `Process` (whose `run()` on this toolchain now and then crashes while it scans the open
/// descriptors, swift-corelibs-foundation #5472) is not involved.
package final class RunningChild: Sendable {
    /// The child's process id.
    package let pid: pid_t
    private let status = Mutex<Int32?>(nil)
    private let exit = AsyncStream<Int32>.makeStream()

    /// Starts `command` (a path and its arguments) with this process's environment in `directory`; standard
    /// input from /dev/null, standard output to `output` and standard error to `error` (/dev/null for nil).
    package init(_ command: [String], directory: URL, output: Int32? = nil, error: Int32? = nil) throws {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        pid = try ChildProcess.spawn(
            command, environment: ProcessInfo.processInfo.environment, directory: directory, input: nil,
            output: output ?? null, error: error ?? null)
        let continuation = exit.continuation
        Thread { [self] in
            let code = (try? ChildProcess.waitForExit(pid)) ?? -1
            status.withLock { $0 = code }
            continuation.yield(code)
            continuation.finish()
        }.start()
    }

    /// Whether the child has not ended yet.
    package var isRunning: Bool { status.withLock { $0 == nil } }

    /// Sends `signal` (SIGTERM unless said otherwise) while the child runs.
    package func send(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    /// The exit status once the child ended (for a signal, 128 + its number, as a shell reports it).
    package func waitForExit() async -> Int32 {
        for await code in exit.stream { return code }
        return status.withLock { $0 } ?? -1
    }
}
