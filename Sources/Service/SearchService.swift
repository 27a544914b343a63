import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Index
import Logging
import Prometheus
import ServiceLifecycle
import Store

/// `searchlight serve`: the HTTP API of SPEC §6 over a store of either engine, on Hummingbird.
///
/// Searches and item look-ups read ``source``: a SQLite store's own public index, or a PostgreSQL store's
/// replica, which a ``ReplicaFollower`` keeps in step (and which the server syncs after its own publishes).
///
/// Every answer is computed from the store as the command line computes it (the same search, item JSON,
/// report and import code); the service adds token checks, limits, the background publish
/// (``PublishLoop``) and metrics. Requests run concurrently; the store's own isolation (SQLite's WAL, a
/// PostgreSQL transaction per publish) keeps a search on the previous index while a publish writes.
package struct SearchService: Sendable {
    let index: any PublicIndexStore
    let source: SearchSource
    let configuration: ServiceConfiguration
    let registry: PrometheusCollectorRegistry
    let logger: Logger
    let metrics = ServiceMetrics()
    let publish: PublishRunner

    /// A service over `index`; `/metrics` prints `registry`, which the executable made the metrics backend.
    /// `publish` runs the background publishes: by default in this process; the executable runs them as a
    /// `searchlight publish` child, so a million-item publish's memory (allocated and freed by the
    /// gigabyte) never shares an address space with the searches: in process, the allocator's work near such
    /// a publish's end stalls a search.
    /// - Parameter source: what searches read: on a SQLite store the store itself (the default), on a
    ///   PostgreSQL store its replica, which the caller has synced (the service then keeps it in step).
    package init(
        index: any PublicIndexStore, source: SearchSource? = nil, configuration: ServiceConfiguration,
        registry: PrometheusCollectorRegistry, logger: Logger, publish: PublishRunner? = nil
    ) {
        self.index = index
        guard let source = source ?? index.ownSearchSource else {
            preconditionFailure("a PostgreSQL store's service needs its replica as the search source")
        }
        self.source = source
        self.configuration = configuration
        self.registry = registry
        self.logger = logger
        self.publish = publish ?? { try await Publisher(store: index, logger: logger).publish() }
    }

    /// Serves until SIGINT or SIGTERM, then lets the requests in flight and a publish under way finish, for
    /// at most ``ServiceConfiguration/shutdownTimeoutSeconds``, and returns.
    /// `onListening` is called with the address once the server accepts connections (`--port 0` resolved).
    package func run(onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void) async throws {
        let connections = OpenConnections(metrics: metrics)
        let stop = StopDeadline(
            timeout: .seconds(configuration.shutdownTimeoutSeconds), connections: connections, logger: logger)
        var follower: ReplicaFollower?
        var publishing = publish
        if case .replica(let replica) = source {
            let replicaFollower = ReplicaFollower(
                replica: replica, interval: configuration.syncInterval, metrics: metrics, logger: logger)
            // The executable synced the replica before it made the source: the gauges start where it is.
            if let generation = replica.generation { metrics.replicaGeneration.record(generation) }
            metrics.replicaLag.record(0)
            publishing = { [publish] in
                let summary = try await publish()
                await replicaFollower.syncNow()
                return summary
            }
            follower = replicaFollower
        } else {
            // A SQLite store's generation is its last publish: recorded at the start and after each publish.
            let source = source
            if let generation = await source.generation() { metrics.replicaGeneration.record(generation) }
            publishing = { [publish, metrics] in
                let summary = try await publish()
                if let generation = await source.generation() { metrics.replicaGeneration.record(generation) }
                return summary
            }
        }
        let publisher = PublishLoop(
            publish: publishing, interval: configuration.publishInterval, stop: stop, metrics: metrics, logger: logger)
        let reports = try ReportCache(index: index, logger: logger)
        let gate = DonationGate(configuration: configuration, metrics: metrics)
        let router = makeRouter(publisher: publisher, reports: reports, gate: gate)
        // The gauge starts at the store's last publish, whoever ran it.
        if let last = try? await ReportReader(index: index).lastPublish() {
            metrics.lastPublishTime.record(last.publishedAt)
        }
        let host = configuration.host
        let app = Application(
            router: router,
            server: HTTPServerBuilder { [configuration, metrics] responder in
                ServiceHTTPChannel(
                    responder: responder, configuration: configuration, connections: connections, metrics: metrics)
            },
            configuration: .init(
                address: .hostname(host, port: configuration.port), serverName: "searchlight",
                backlog: configuration.listenBacklog,
                availableConnectionsDelegate: ConnectionLimit(maximum: configuration.maxConnections, metrics: metrics)),
            services: follower.map { [publisher, $0] } ?? [publisher],
            onServerRunning: { channel in onListening(host, channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [BoundedStopService(application: app, stop: stop)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await reports.removeFiles()
            await gate.shutDown()
            throw error
        }
        await reports.removeFiles()
        await gate.shutDown()
    }

    /// The routes of SPEC §6, behind the access log, the request metrics and the answers' shape. (HEAD is
    /// answered as GET by the connection rules, so every route answers it.)
    func makeRouter(publisher: PublishLoop, reports: ReportCache, gate: DonationGate) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: SecurityHeadersMiddleware(logger: logger))
        router.get("/api/search") { request, _ in try await search(request) }
        router.get("/api/items/**") { request, _ in try await item(request) }
        router.post("/api/donations") { request, _ in try await donate(request, publisher: publisher, gate: gate) }
        router.get("/api/report") { _, _ in try await reportJSON(from: reports) }
        router.get("/report") { _, _ in try await reportHTML() }
        router.get("/") { request, _ in try await searchPage(request) }
        router.get("/healthz") { _, _ in await health() }
        router.get("/metrics") { _, _ in metricsText() }
        return router
    }

    /// `GET /healthz`: 200 when the store answers and a read of what searches read succeeds
    /// (``SearchSource/checkSearchable()``), else 503. The answer names the generation of the index searches
    /// read (`Searchlight-Index-Generation`: a PostgreSQL store's replica generation, a SQLite store's last
    /// publish) and, on PostgreSQL, how many generations the replica is behind (`Searchlight-Replica-Lag`).
    func health() async -> Response {
        do {
            try await index.checkReadable()
            try await source.checkSearchable()
            var response = Response.text("ok\n", contentType: "text/plain; charset=utf-8")
            let generation = await source.generation()
            if let generation { response.headers[Self.generationHeader] = String(generation) }
            if case .replica(let replica) = source {
                // How far the replica is behind the store right now (the store's head is one small read).
                let head = try await replica.database.indexHead()
                response.headers[Self.lagHeader] = String(max(0, head.generation - (generation ?? 0)))
            }
            return response
        } catch {
            logger.warning("health check failed", metadata: ["reason": "\(error)"])
            return .text("unavailable\n", contentType: "text/plain; charset=utf-8", status: .serviceUnavailable)
        }
    }

    /// The header naming the generation of the index searches read.
    static let generationHeader = HTTPField.Name("Searchlight-Index-Generation")!
    /// The header telling how many generations a PostgreSQL store's replica is behind the store.
    static let lagHeader = HTTPField.Name("Searchlight-Replica-Lag")!

    func metricsText() -> Response {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }
}
