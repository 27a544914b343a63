import FlyingSocks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The listening socket on 127.0.0.1 and the loop that accepts connections, each handed to a thread of its own.
///
/// FlyingSocks' `Socket` does the socket setup; the loop itself waits with `poll` beside the stop signal, so it
/// needs no async runtime and cannot be starved by tests that keep the cooperative thread pool busy.
struct Listener {
    /// The listening socket, non-blocking.
    let socket: Socket
    /// The port the kernel assigned (or the one requested).
    let port: UInt16

    /// Binds and listens on `127.0.0.1:port`; port 0 asks the kernel for a free ephemeral port.
    ///
    /// Once this returns the kernel already queues incoming connections, so the server is ready before the accept
    /// loop has even started; no waiting is needed.
    init(port requestedPort: UInt16) throws(FixtureServerError) {
        do {
            let socket = try Socket(domain: AF_INET, type: .stream)
            do {
                try socket.setValue(true, for: .localAddressReuse)
                try socket.bind(to: .inet(ip4: "127.0.0.1", port: requestedPort))
            } catch {
                try? socket.close()
                throw error
            }
            // `listen` closes the socket itself when it fails: closing its number again could close a descriptor
            // that another thread has opened since.
            try socket.listen(maxPendingConnection: 1024)
            do {
                try socket.setFlags(.nonBlocking)
                _ = fcntl(socket.file.rawValue, F_SETFD, FD_CLOEXEC)
                guard case .ip4(_, let port) = try socket.sockname() else {
                    throw SocketError.unsupportedAddress
                }
                self.socket = socket
                self.port = port
            } catch {
                try? socket.close()
                throw error
            }
        } catch let error as FixtureServerError {
            throw error
        } catch {
            throw .listen(String(describing: error))
        }
    }

    /// Accepts connections until the server stops, starting a connection thread for each, then closes the socket.
    func run(core: ServerCore) {
        while true {
            let outcome = SocketWait.wait(
                for: socket.file.rawValue,
                events: Int16(POLLIN),
                stop: core.stopSignal,
                timeout: nil
            )
            guard outcome != .stopped else {
                try? socket.close()
                return
            }
            let accepted: Socket.FileDescriptor
            do {
                accepted = try socket.accept().file
            } catch SocketError.blocked {
                // Another wake-up took the connection, or the client gave up before we got to it.
                continue
            } catch {
                // Typically EMFILE (out of descriptors): the pending connection stays queued, so back off briefly
                // instead of spinning on it.
                _ = core.stopSignal.pause(for: .milliseconds(10))
                continue
            }
            let client = ClientSocket(fd: accepted.rawValue, stop: core.stopSignal)
            let id = core.connectionOpened()
            core.spawn(named: "fixture-connection-\(id)") {
                Connection(socket: client, core: core, id: id).run()
            }
        }
    }
}
