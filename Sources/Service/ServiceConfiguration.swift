/// How `searchlight serve` listens, publishes and bounds what one client can hold (SPEC §7).
///
/// Every limit has a default that a production server can run with; `serve`'s flags set them.
package struct ServiceConfiguration: Sendable {
    /// The address to listen on.
    package var host = "127.0.0.1"
    /// The port; 0 picks a free one.
    package var port = 8080
    /// Seconds between the server's incremental publishes (only when donations arrived since the last).
    package var publishInterval: Double = 60
    /// Seconds between two checks of a PostgreSQL store's replica against the store (it also syncs when a
    /// publish is notified).
    package var syncInterval: Double = 5
    /// The largest donation body accepted, in bytes (SPEC §6: 10 MiB).
    package var maxDonationBytes = 10 << 20

    /// Seconds a connection may stay silent between requests before it is closed.
    package var idleTimeoutSeconds = 30

    /// The most connections open at once. Past it the server stops accepting: new connections wait in the
    /// listen queue (``listenBacklog``) until one closes, and past that the kernel refuses them.
    package var maxConnections = 512
    /// How many connection attempts the kernel queues while the server is at ``maxConnections``.
    package var listenBacklog = 256

    /// Seconds a connection may stay unwritable (its client not reading what was sent) before it is closed.
    package var writeTimeoutSeconds = 30
    /// The most response bytes the server queues for one connection before it waits for the client to read
    /// (NIO's high write-buffer mark); a streamed answer is read from its file only as fast as it leaves.
    package var maxPendingOutputBytes = 64 << 10
    /// The kernel's send buffer of each connection (`SO_SNDBUF`, which Linux doubles). Left to itself, Linux
    /// grows it to 4 MiB for a client that does not read; with it, such a client holds about 0.5 MiB of the
    /// server's kernel memory plus ``maxPendingOutputBytes``, and a write timeout starts once those are full.
    package var sendBufferBytes = 256 << 10

    /// Seconds a request head (request line and headers) may take from its first byte, else the connection
    /// is closed.
    package var headTimeoutSeconds = 10
    /// Seconds a request body may take on top of what ``minBodyBytesPerSecond`` allows for its bytes: a body
    /// must arrive by `start + bodyTimeoutSeconds + received / minBodyBytesPerSecond`, else the request is
    /// answered 408 and the connection closed.
    package var bodyTimeoutSeconds = 20
    /// The slowest average rate, in bytes per second, at which a request body may keep arriving after
    /// ``bodyTimeoutSeconds``.
    package var minBodyBytesPerSecond = 4096

    /// How many donation imports (parse, checks, store writes) run at once; more wait for a turn.
    package var maxConcurrentImports = 1
    /// The most donation bytes held at once, received or waiting to be imported; a donation that would pass
    /// it is answered 503 with `Retry-After` before its body is read.
    package var maxDonationMemoryBytes = 32 << 20

    /// Seconds a stop (SIGINT or SIGTERM) waits for requests and a publish under way: at that point the
    /// connections still open are closed and a publish still running is stopped (its transaction rolls back).
    package var shutdownTimeoutSeconds = 30

    package init() {}
}
