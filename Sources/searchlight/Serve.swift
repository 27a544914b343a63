import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import Service
import Store

extension Searchlight {
    /// `searchlight serve`: the HTTP API of SPEC §6 over the store.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the public index over HTTP: search, items, the report, donations from apps.",
            discussion: """
                Endpoints (SPEC §6): GET /api/search?q=TEXT&query=CSSQUERY&limit=N, GET /api/items/ID \
                (the uniqueIdentifier percent-encoded), POST /api/donations (JSON Lines as for import, with \
                Authorization: Bearer TOKEN from `searchlight token create`), GET /api/report, GET / (a \
                search page), GET /report, GET /healthz, GET /metrics (Prometheus).

                On a PostgreSQL store searches and item look-ups read a local replica of the public index \
                (--index-cache), synced before the server listens, whenever a publish commits (LISTEN/NOTIFY) \
                and at least every --sync-interval seconds; several servers on one store each keep their own. \
                /healthz names the replica's generation and lag (Searchlight-Index-Generation, \
                Searchlight-Replica-Lag), as /metrics does.

                The first line on standard output is `listening on http://HOST:PORT`. Donations that arrive \
                over HTTP are published by the server every --publish-interval seconds (only when some \
                arrived), in the background: searches answer from the previous index until the publish \
                commits. Requests are logged to standard error.

                Limits: at most --max-connections connections are open (more wait in the listen queue); a \
                connection whose client does not read for --write-timeout seconds, or sends nothing between \
                requests for --idle-timeout seconds, or takes more than --header-timeout seconds to send a \
                request's line and headers, is closed; a request body must keep arriving at \
                --min-body-rate bytes a second after its first --body-timeout seconds (else 408). At most \
                --max-concurrent-imports donations are imported at once, off the threads that answer \
                searches, and donation bodies hold at most --max-donation-memory bytes: past that a donation \
                is answered 503 with Retry-After before its body is read. A refused request's connection is \
                closed rather than its body read; HTTP/1.0 connections close after their answer unless they \
                ask for keep-alive; every route answers HEAD.

                SIGINT or SIGTERM stop accepting connections and let the requests in flight and a publish \
                under way finish, for at most --shutdown-timeout seconds: then the connections still open \
                are closed and a publish still running is stopped (SIGTERM to its child: its transaction \
                rolls back, the donations stay stored for the next publish). Exit 0.

                Exit status: 0 stopped by a signal, 2 usage error, 3 runtime failure (the store cannot be \
                opened, the address cannot be bound).
                """)

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on (0 picks a free one).")
        var port = 8080

        @Option(help: "Seconds between the server's publishes of donations that arrived over HTTP.")
        var publishInterval: Double = 60

        @Option(help: "On a PostgreSQL store: seconds between two checks of the replica against the store.")
        var syncInterval: Double = 5

        @Option(help: "The largest donation body accepted, in bytes.")
        var maxBodyBytes = 10 << 20

        @OptionGroup var limits: ServeLimitOptions

        @OptionGroup var store: StoreOptions

        @OptionGroup var indexCache: IndexCacheOptions

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
            guard publishInterval >= 0.05, publishInterval <= 7 * 86400 else {
                throw ValidationError("--publish-interval must be between 0.05 and 604800 seconds (a week).")
            }
            guard syncInterval >= 0.05, syncInterval <= 86400 else {
                throw ValidationError("--sync-interval must be between 0.05 and 86400 seconds (a day).")
            }
            guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive.") }
        }

        func run() async throws {
            global.bootstrapLogging(quietLevel: .info)
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            var configuration = ServiceConfiguration()
            configuration.host = host
            configuration.port = port
            configuration.publishInterval = publishInterval
            configuration.syncInterval = syncInterval
            configuration.maxDonationBytes = maxBodyBytes
            limits.apply(to: &configuration)
            // An existing store only: a mistyped path must not serve a new, empty index that looks healthy.
            try await store.withPublicIndex { index in
                let child = ChildPublish(store: store.value)
                let logger = Logger(label: "searchlight.serve")
                let source = try await indexCache.searchSource(for: index, logger: logger)
                let service = SearchService(
                    index: index, source: source, configuration: configuration, registry: registry,
                    logger: logger, publish: { try await child.run() })
                do {
                    try await service.run { host, port in
                        let shown = host.contains(":") ? "[\(host)]" : host
                        FileHandle.standardOutput.write(Data("listening on http://\(shown):\(port)\n".utf8))
                    }
                } catch {
                    throw RuntimeError("serve: \(error)")
                }
            }
        }
    }
}
