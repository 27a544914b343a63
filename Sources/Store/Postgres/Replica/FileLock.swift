import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `flock` on a file, held until the value is released (its descriptor closed).
final class FileLock: Sendable {
    private let descriptor: Int32

    /// Takes a shared or exclusive lock on `path` (created when missing for an exclusive lock), waiting for
    /// it when `wait`; `nil` when the file cannot be opened or, without
    /// `wait`, another process holds a conflicting lock. A waiting call blocks its thread: call it off the
    /// cooperative pool (``acquire(path:)``).
    convenience init?(path: String, exclusive: Bool, wait: Bool) {
        guard case .success(let descriptor) = Self.lock(path: path, exclusive: exclusive, wait: wait) else {
            return nil
        }
        self.init(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Why a lock could not be taken: the `errno` of `open` or `flock` (`EWOULDBLOCK`: another holds it).
    struct Failure: Error {
        var code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// Turns an exclusive lock into a shared one on the same open file, so the file is never unlocked in
    /// between. Releasing it and taking a shared lock anew could fail: a child process being spawned at that
    /// moment holds a copy of the descriptor until it execs, and with it the exclusive lock.
    func downgrade() -> Bool {
        var result: Int32
        repeat { result = flock(descriptor, LOCK_SH | LOCK_NB) } while result != 0 && errno == EINTR
        return result == 0
    }

    /// Whether `path` still names the file this lock is on: another process may have removed or replaced the
    /// file between its opening and the lock.
    func isHolding(path: String) -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, stat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// A shared lock on `path` without waiting, or why there is none.
    static func shared(path: String) -> Result<FileLock, Failure> {
        lock(path: path, exclusive: false, wait: false).map { FileLock(descriptor: $0) }
    }

    private static func lock(path: String, exclusive: Bool, wait: Bool) -> Result<Int32, Failure> {
        let flags = exclusive ? O_RDWR | O_CREAT | O_CLOEXEC : O_RDONLY | O_CLOEXEC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { return .failure(Failure(code: errno)) }
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        var result: Int32
        repeat { result = flock(descriptor, operation) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(descriptor)
            return .failure(Failure(code: code))
        }
        return .success(descriptor)
    }

    deinit {
        close(descriptor)
    }

    /// Takes the exclusive lock on `path`, waiting on a thread of its own.
    static func acquire(path: String) async throws(StoreError) -> FileLock {
        let lock = await withCheckedContinuation { (continuation: CheckedContinuation<FileLock?, Never>) in
            let thread = Thread { continuation.resume(returning: FileLock(path: path, exclusive: true, wait: true)) }
            thread.name = "searchlight-replica-lock"
            thread.start()
        }
        guard let lock else { throw StoreError(path: path, message: "cannot open the replica's lock file") }
        return lock
    }
}
