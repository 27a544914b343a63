import ArgumentParser
import Service

/// The limits `serve` holds every client and burst to (SPEC §7's `--max-connections` and the timeouts,
/// rates and budgets around it), each with its default from ``ServiceConfiguration``.
struct ServeLimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The most connections open at once; more wait in the listen queue.", valueName: "n"))
    var maxConnections = ServiceConfiguration().maxConnections

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may wait for its client to read before it is closed.", valueName: "seconds"))
    var writeTimeout = ServiceConfiguration().writeTimeoutSeconds

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may send nothing between requests before it is closed.", valueName: "seconds"))
    var idleTimeout = ServiceConfiguration().idleTimeoutSeconds

    @Option(
        help: ArgumentHelp(
            "Seconds a request's line and headers may take from their first byte.", valueName: "seconds"))
    var headerTimeout = ServiceConfiguration().headTimeoutSeconds

    @Option(
        help: ArgumentHelp(
            "Seconds a request body may take on top of what --min-body-rate allows.", valueName: "seconds"))
    var bodyTimeout = ServiceConfiguration().bodyTimeoutSeconds

    @Option(help: ArgumentHelp("The slowest average rate a request body may arrive at.", valueName: "bytes/s"))
    var minBodyRate = ServiceConfiguration().minBodyBytesPerSecond

    @Option(help: ArgumentHelp("How many donation imports run at once; more wait for their turn.", valueName: "n"))
    var maxConcurrentImports = ServiceConfiguration().maxConcurrentImports

    @Option(
        help: ArgumentHelp(
            "The most donation bytes held at once; past it a donation is answered 503.", valueName: "bytes"))
    var maxDonationMemory = ServiceConfiguration().maxDonationMemoryBytes

    @Option(
        help: ArgumentHelp(
            "Seconds a stop waits for requests in flight and a publish under way.", valueName: "seconds"))
    var shutdownTimeout = ServiceConfiguration().shutdownTimeoutSeconds

    func validate() throws {
        for (name, value, range) in [
            ("--max-connections", maxConnections, 1...1_000_000), ("--write-timeout", writeTimeout, 1...86400),
            ("--idle-timeout", idleTimeout, 1...86400), ("--header-timeout", headerTimeout, 1...86400),
            ("--body-timeout", bodyTimeout, 1...86400),
            ("--min-body-rate", minBodyRate, 1...(1 << 30)),
            ("--max-concurrent-imports", maxConcurrentImports, 1...64),
            ("--max-donation-memory", maxDonationMemory, 1...(1 << 40)),
            ("--shutdown-timeout", shutdownTimeout, 0...86400),
        ] where !range.contains(value) {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound).")
        }
    }

    /// Writes these limits into `configuration`.
    func apply(to configuration: inout ServiceConfiguration) {
        configuration.maxConnections = maxConnections
        configuration.writeTimeoutSeconds = writeTimeout
        configuration.idleTimeoutSeconds = idleTimeout
        configuration.headTimeoutSeconds = headerTimeout
        configuration.bodyTimeoutSeconds = bodyTimeout
        configuration.minBodyBytesPerSecond = minBodyRate
        configuration.maxConcurrentImports = maxConcurrentImports
        configuration.maxDonationMemoryBytes = maxDonationMemory
        configuration.shutdownTimeoutSeconds = shutdownTimeout
    }
}
