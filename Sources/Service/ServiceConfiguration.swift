/// How `searchlight serve` listens and publishes (SPEC §7).
public struct ServiceConfiguration: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one.
    public var port = 8080
    /// Seconds between the server's incremental publishes (only when donations arrived since the last).
    public var publishInterval: Double = 60
    /// The largest donation body accepted, in bytes (SPEC §6: 10 MiB).
    public var maxDonationBytes = 10 << 20

    public init() {}
}
