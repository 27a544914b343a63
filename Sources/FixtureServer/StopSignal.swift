#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe that becomes readable, and stays readable, once the server stops.
///
/// Every blocking wait in the server polls this pipe next to its socket, so `stop()` wakes the accept loop, idle
/// keep-alive connections, pauses and hanging requests alike, without touching file descriptors that other threads
/// own. Nothing ever reads the pipe: one written byte keeps it readable forever.
final class StopSignal: Sendable {
    /// The read end, polled for `POLLIN`.
    let readEnd: Int32

    /// The write end; one byte is written to it by `fire()`.
    private let writeEnd: Int32

    /// Creates the pipe.
    ///
    /// - Throws: ``FixtureServerError/system(_:errno:)`` when the process is out of file descriptors.
    init() throws(FixtureServerError) {
        var ends: [Int32] = [-1, -1]
        let result = ends.withUnsafeMutableBufferPointer { buffer in
            pipe(buffer.baseAddress)
        }
        guard result == 0 else {
            throw .system("pipe", errno: errno)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends {
            // Close-on-exec so a test that spawns a process does not leak the pipe into it.
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Makes the read end readable; calling it again is harmless.
    func fire() {
        var byte: UInt8 = 1
        // A full pipe (after thousands of calls) means it is already readable, so the result does not matter.
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether `fire()` has been called.
    var hasFired: Bool {
        var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Sleeps for `duration` unless the server stops first.
    ///
    /// - Returns: true when the full duration passed, false when the server stopped.
    func pause(for duration: Duration) -> Bool {
        SocketWait.wait(for: nil, events: 0, stop: self, timeout: duration) == .timedOut
    }
}

/// Waiting for a socket to become ready, the server's stop signal, or a deadline, whichever comes first.
enum SocketWait {
    /// Why a wait ended.
    enum Outcome: Equatable {
        /// The socket is ready for the requested events, or has an error or hang-up to report.
        case ready
        /// The server is stopping.
        case stopped
        /// The timeout passed.
        case timedOut
    }

    /// Polls `fd` (when given) for `events` together with the stop pipe.
    ///
    /// Stopping wins over readiness, so a stopping server never starts another piece of work.
    static func wait(for fd: Int32?, events: Int16, stop: StopSignal, timeout: Duration?) -> Outcome {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var entries = [pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)]
        if let fd {
            entries.append(pollfd(fd: fd, events: events, revents: 0))
        }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let remaining = clock.now.duration(to: deadline)
                if remaining <= .zero {
                    return .timedOut
                }
                milliseconds = millisecondsRoundedUp(remaining)
            }
            let count = entries.withUnsafeMutableBufferPointer { buffer in
                poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
            }
            if count < 0 {
                // EINTR: a signal arrived; anything else cannot be waited out, so treat the socket as ready and let
                // the following read or write report the real error.
                if errno == EINTR {
                    continue
                }
                return .ready
            }
            if entries[0].revents != 0 {
                return .stopped
            }
            if entries.count > 1, entries[1].revents != 0 {
                return .ready
            }
            // count == 0: poll timed out (possibly a little early); the deadline check above decides.
        }
    }

    /// `duration` in whole milliseconds, rounded up so a wait never ends before its deadline, capped for `poll`.
    static func millisecondsRoundedUp(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let fraction = (attoseconds + perMillisecond - 1) / perMillisecond
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int32.max }
        return Int32(clamping: total.partialValue + fraction)
    }
}
