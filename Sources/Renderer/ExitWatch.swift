import Foundation
import Synchronization

/// Reaps a child process on a thread of its own (`waitpid` blocks) and tells whoever waits that it exited.
final class ExitWatch: Sendable {
    private struct State {
        var exited = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init(pid: pid_t) {
        let thread = Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            let waiting = state.withLock { state in
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
