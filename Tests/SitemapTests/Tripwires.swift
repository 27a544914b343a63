import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Things a sitemap may point at that tell afterwards whether anything touched them.
///
/// - a regular file holding a unique marker: its content showing up anywhere means an entity was expanded;
/// - a FIFO: opening one for reading blocks until a writer comes, so a parser that tries to read it hangs,
///   and a non-blocking open for writing succeeds only while someone has it open for reading;
/// - a TCP listener on 127.0.0.1: a connection attempt completes in the kernel's backlog even if never
///   accepted, so a non-blocking `accept` afterwards says whether anyone connected.
final class Tripwires: Sendable {
    let folder: URL
    let marker = "tripwire-\(UUID().uuidString)"
    let markerFile: URL
    let fifo: URL
    let port: UInt16
    private let listener: Int32

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitemap-xxe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        markerFile = folder.appendingPathComponent("secret.txt")
        try Data(marker.utf8).write(to: markerFile)
        fifo = folder.appendingPathComponent("fifo")
        guard mkfifo(fifo.path, 0o600) == 0 else { throw TripwireError("mkfifo failed: \(errno)") }

        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TripwireError("socket failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw TripwireError("bind/listen failed: \(errno)")
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(listener)
        try? FileManager.default.removeItem(at: folder)
    }

    /// `http://127.0.0.1:PORT/path`.
    func httpURL(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Whether anyone connected to the listener since it opened (connections are taken off the backlog).
    func anyConnection() -> Bool {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return false }
        close(connection)
        return true
    }

    /// Whether someone has the FIFO open for reading right now; if so, this also unblocks them with an
    /// empty write end.
    func fifoIsBeingRead() -> Bool {
        let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
        guard writer >= 0 else { return false }  // ENXIO: no reader
        close(writer)
        return true
    }
}

struct TripwireError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
