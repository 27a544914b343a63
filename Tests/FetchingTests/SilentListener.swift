import Foundation

/// A TCP listener on 127.0.0.1 that never accepts or answers: the kernel completes the
/// handshake from its backlog, so a client connects and then hears nothing. With
/// `fillBacklog`, the backlog is full, so new SYNs are dropped and a client's TCP
/// connect itself hangs.
final class SilentListener {
    let port: UInt16
    private let descriptor: Int32
    private var fillers: [Int32] = []

    /// - Parameters:
    ///   - fillBacklog: Fill the accept backlog, so a new TCP connection is never accepted.
    ///   - listening: `false` binds the port without listening: connections are refused, and
    ///     no other socket (another test's server) can take the port meanwhile.
    init(fillBacklog: Bool = false, listening: Bool = true) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, !listening || listen(descriptor, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        if fillBacklog {
            // Backlog 0 holds one completed connection on Linux; two fillers make sure it is full.
            for _ in 0..<2 {
                // Non-blocking, so a connect that finds the backlog full does not stall the test.
                let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
                var target = address
                _ = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                fillers.append(filler)
            }
            // Let the kernel finish the fillers' handshakes before a test connects.
            usleep(100_000)
        }
    }

    func close() {
        for filler in fillers { _ = Foundation.close(filler) }
        fillers.removeAll()
        _ = Foundation.close(descriptor)
    }
}
