import Foundation
import Synchronization

/// A small shell process that stops a test cluster's server and removes its folder once the pipe on its
/// standard input closes: when ``fire()`` closes the write end, or when the test process ends in any way
/// (exit, crash, `kill -9`), since the kernel then closes it. A cluster shared by a whole test run needs no
/// teardown hook, and a crashed run leaves no server behind.
///
/// The write end is close-on-exec, so no other child of the test process holds it open. The watchdog runs
/// in a session of its own (`setsid`), out of reach of a terminal's Ctrl-C to the test process's group.
final class ClusterWatchdog: Sendable {
    private enum State {
        case running(writeEnd: Int32, waiters: [CheckedContinuation<Void, Never>])
        case stopping(waiters: [CheckedContinuation<Void, Never>])
        case finished
    }

    /// The state, in a box the process's termination handler can hold without holding the watchdog.
    private final class Shared: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    private let shared: Shared

    /// Starts the watchdog of the cluster in `folder`.
    init(programs: PostgresPrograms, folder: URL) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PostgresCluster.Failure.system("pipe", errno: errno) }
        // Close-on-exec: no other child of the test process inherits the pipe (the watchdog gets its read
        // end as standard input, which a dup2 keeps open).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        shared = Shared(.running(writeEnd: ends[1], waiters: []))
        let script = #"folder=$1; shift; cat >/dev/null; "$@" >/dev/null 2>&1; rm -rf -- "$folder""#
        var command = ["/bin/sh", "-c", script, "sh", folder.path] + programs.stopCommand(folder: folder)
        if let setsid = ["/usr/bin/setsid", "/bin/setsid"].first(where: FileManager.default.isExecutableFile) {
            command = [setsid, "--wait"] + command
        }
        let pid: pid_t
        do {
            // Started with posix_spawn, not Foundation's `Process` (see ``ChildProcess``).
            pid = try ChildProcess.spawn(
                command, environment: ProcessInfo.processInfo.environment, directory: URL(fileURLWithPath: "/"),
                input: ends[0], output: nil)
        } catch {
            close(ends[0])
            close(ends[1])
            throw PostgresCluster.Failure.system(error.call, errno: error.code)
        }
        close(ends[0])
        // A thread of its own waits for the watchdog's end, then wakes whoever waits for the cluster to stop.
        Thread { [shared] in
            _ = try? ChildProcess.waitForExit(pid)
            let waiters = shared.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                defer { state = .finished }
                switch state {
                case .running(let writeEnd, let waiters):
                    close(writeEnd)
                    return waiters
                case .stopping(let waiters): return waiters
                case .finished: return []
                }
            }
            for waiter in waiters { waiter.resume() }
        }.start()
    }

    /// A cluster nobody can reach any more is stopped without waiting.
    deinit {
        release()
    }

    /// Tells the watchdog to stop the cluster and remove its folder, without waiting for it.
    func release() {
        shared.state.withLock { state in
            if case .running(let writeEnd, let waiters) = state {
                close(writeEnd)
                state = .stopping(waiters: waiters)
            }
        }
    }

    /// Stops the cluster and removes its folder; returns once both are done. Calling it again waits for the
    /// same end.
    func fire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = shared.state.withLock { state -> Bool in
                switch state {
                case .running(let writeEnd, var waiters):
                    close(writeEnd)
                    waiters.append(continuation)
                    state = .stopping(waiters: waiters)
                    return false
                case .stopping(var waiters):
                    waiters.append(continuation)
                    state = .stopping(waiters: waiters)
                    return false
                case .finished:
                    return true
                }
            }
            if finished { continuation.resume() }
        }
    }
}
