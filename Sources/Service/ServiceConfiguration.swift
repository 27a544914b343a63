/// How `searchlight serve` listens and publishes (SPEC §7).
package struct ServiceConfiguration: Sendable {
    /// The address to listen on.
    package var host = "127.0.0.1"
    /// The port; 0 picks a free one.
    package var port = 8080
    /// Seconds between the server's incremental publishes (only when donations arrived since the last).
    package var publishInterval: Double = 60
    /// The largest donation body accepted, in bytes (SPEC §6: 10 MiB).
    package var maxDonationBytes = 10 << 20

    /// Seconds a connection may stay silent (between requests, or inside a request body) before it is closed.
    package var idleTimeoutSeconds = 30

    /// How many donation imports (parse, checks, store writes) run at once; more wait for a turn.
    package var maxConcurrentImports = 1
    /// The most donation bytes held at once, received or waiting to be imported; a donation that would pass
    /// it is answered 503 with `Retry-After` before its body is read.
    package var maxDonationMemoryBytes = 32 << 20

    package init() {}
}
