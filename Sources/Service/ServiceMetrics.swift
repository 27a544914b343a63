import Foundation
import Metrics

/// The service's own metrics (SPEC §6 `/metrics`), through swift-metrics: the executable bootstraps the
/// backend (Prometheus), as it bootstraps logging. Requests by route and status come from Hummingbird's
/// `MetricsMiddleware` (`hb_requests`, `http_server_request_duration_seconds`).
struct ServiceMetrics: Sendable {
    /// How long each search took, successful or not (a histogram in Prometheus).
    let searchDuration = Metrics.Timer(label: "searchlight_search_duration_seconds", preferredDisplayUnit: .seconds)
    /// Donation records imported over HTTP.
    let donationsImported = Counter(label: "searchlight_donations_imported_total")
    /// Donation lines refused over HTTP (bad lines).
    let donationsRejected = Counter(label: "searchlight_donations_rejected_total")
    /// Donation requests shed with a 503 because the imports under way held their memory budget.
    let donationsShed = Counter(label: "searchlight_donations_shed_total")
    /// Donation imports running (parsing, checking or writing) or waiting for their turn.
    let importsInProgress = Meter(label: "searchlight_imports_in_progress")
    /// When the server's last publish committed, in seconds since 1970 (0 before the first).
    let lastPublishTime = Gauge(label: "searchlight_last_publish_timestamp_seconds")
    /// Publishes the server ran that committed.
    let publishes = Counter(label: "searchlight_publishes_total")
    /// Publishes the server ran that failed.
    let publishFailures = Counter(label: "searchlight_publish_failures_total")
    /// Connections open now.
    let openConnections = Gauge(label: "searchlight_open_connections")
    /// Times the open connections reached `--max-connections` (the server then stops accepting).
    let connectionLimitReached = Counter(label: "searchlight_connection_limit_reached_total")
    /// Connections closed because their client stopped reading for `--write-timeout` seconds.
    let connectionsClosedForWriteTimeout = Counter(
        label: "searchlight_connections_closed_total", dimensions: [("reason", "write_timeout")])
    /// Connections closed because a request body arrived more slowly than `--min-body-rate` allows (408).
    let connectionsClosedForSlowBody = Counter(
        label: "searchlight_connections_closed_total", dimensions: [("reason", "slow_body")])
    /// Connections closed because a request head did not arrive whole within `--header-timeout`.
    let connectionsClosedForSlowHead = Counter(
        label: "searchlight_connections_closed_total", dimensions: [("reason", "slow_head")])
    /// Connections still open at the stop's deadline, closed then.
    let connectionsClosedAtShutdown = Counter(
        label: "searchlight_connections_closed_total", dimensions: [("reason", "shutdown")])
    /// The generation of the index searches read: a PostgreSQL store's replica's, a SQLite store's last publish.
    let replicaGeneration = Gauge(label: "searchlight_index_generation")
    /// How many generations the replica is behind the PostgreSQL store, as last checked.
    let replicaLag = Gauge(label: "searchlight_replica_lag_generations")
    /// Replica syncs that failed (the replica kept its generation).
    let replicaSyncFailures = Counter(label: "searchlight_replica_sync_failures_total")
    /// Replica rebuilds.
    let replicaRebuilds = Counter(label: "searchlight_replica_rebuilds_total")
}
