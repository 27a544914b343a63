#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One accepted TCP connection, non-blocking, with every wait also watching the server's stop signal.
///
/// The connection's own thread is the only user of the descriptor, from accept to close; nothing else closes or
/// shuts it down, so a descriptor number is never reused under a thread that still holds it.
struct ClientSocket {
    /// The connected socket.
    let fd: Int32

    /// The server's stop signal, which ends every wait.
    let stop: StopSignal

    /// Takes ownership of an accepted descriptor: non-blocking, so waits go through `poll` and can be interrupted,
    /// and `TCP_NODELAY`, so trickled chunks and early headers leave at once instead of waiting for Nagle.
    init(fd: Int32, stop: StopSignal) {
        self.fd = fd
        self.stop = stop
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            // Darwin has no MSG_NOSIGNAL; the socket option does the same job there.
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// The outcome of reading.
    enum ReadResult {
        /// Some bytes arrived.
        case bytes([UInt8])
        /// The peer closed the connection or it failed.
        case closed
        /// The server is stopping.
        case stopped
    }

    /// Waits for and returns the next bytes the client sends (at most 64 KiB).
    func read() -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress, raw.count, 0)
            }
            if count > 0 {
                return .bytes(Array(buffer[..<count]))
            }
            if count == 0 {
                return .closed
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                switch SocketWait.wait(for: fd, events: Int16(POLLIN), stop: stop, timeout: nil) {
                case .stopped: return .stopped
                case .ready, .timedOut: continue
                }
            default:
                return .closed
            }
        }
    }

    /// Sends all of `bytes`.
    ///
    /// - Returns: false when the client went away or the server is stopping, so the caller drops the connection.
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                systemSend(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if sent > 0 {
                offset += sent
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // The client is not reading fast enough: wait for room, but give up if the server stops.
                guard SocketWait.wait(for: fd, events: Int16(POLLOUT), stop: stop, timeout: nil) == .ready else {
                    return false
                }
            default:
                return false
            }
        }
        return true
    }

    /// Waits until the client closes its side (discarding anything else it sends) or the server stops.
    func waitForPeerClose() {
        while true {
            switch read() {
            case .bytes: continue
            case .closed, .stopped: return
            }
        }
    }

    /// Closes the connection normally: the client sees FIN after everything already sent.
    func close() {
        systemClose(fd)
    }

    /// Closes the connection politely: sends FIN after everything already sent, then reads and discards whatever
    /// the client still sends, for at most `limit`, before closing.
    ///
    /// Closing a socket with unread input makes the kernel send RST, which can destroy the response the client has
    /// not read yet (a 400 for garbage input, say); draining first ("lingering close", as Apache does) prevents that.
    func closeGracefully(limit: Duration = .milliseconds(500)) {
        _ = shutdown(fd, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + limit
        var scratch = [UInt8](repeating: 0, count: 4096)
        draining: while true {
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                continue
            }
            if count < 0, errno == EINTR {
                continue
            }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK else {
                break draining
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero,
                SocketWait.wait(for: fd, events: Int16(POLLIN), stop: stop, timeout: remaining) == .ready
            else {
                break draining
            }
        }
        systemClose(fd)
    }

    /// Closes the connection abruptly: with `SO_LINGER` set to zero seconds, `close` discards unsent data and sends
    /// RST, which the client reports as "connection reset by peer".
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        systemClose(fd)
    }
}

/// `send(2)` without SIGPIPE: a client that closed early must give EPIPE, not a signal that kills the test process.
private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
        send(fd, pointer, count, 0)
    #endif
}

/// `close(2)`, named apart from ``ClientSocket/close()``.
private func systemClose(_ fd: Int32) {
    _ = close(fd)
}
