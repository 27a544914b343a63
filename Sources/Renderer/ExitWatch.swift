import Foundation
import Synchronization

/// Reaps a child process on a thread of its own (`waitid` blocks) and tells whoever waits that it exited.
final class ExitWatch: Sendable {
    private struct State {
        var exited = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init(pid: pid_t) {
        let thread = Thread { [self] in
            // Waits without reaping, then reaps under the lock: while ``whileRunning(_:)`` holds it the pid
            // is still this child's (a zombie at worst), never a new process's that reused the number.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
            let waiting = state.withLock { state in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                state.exited = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
        thread.name = "searchlight-browser-reaper"
        thread.start()
    }

    var hasExited: Bool { state.withLock { $0.exited } }

    /// Runs `body` (a signal to the pid, say) only if the process has not been reaped yet, and keeps it from
    /// being reaped meanwhile; returns whether `body` ran. The machine's pid numbers wrap (32768 here), so a
    /// signal sent after the reap could reach an unrelated process.
    @discardableResult
    func whileRunning(_ body: () -> Void) -> Bool {
        state.withLock { state in
            guard !state.exited else { return false }
            body()
            return true
        }
    }

    /// Returns once the process has exited.
    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.exited { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
