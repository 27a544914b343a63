import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Store

/// Keeps a PostgreSQL store's replica (``IndexReplica``) in step while `serve` runs: it syncs when a publish
/// anywhere commits (PostgreSQL's `LISTEN`/`NOTIFY`), and every interval whatever it heard, which also
/// covers a listening connection that broke; `serve`'s own publishes sync right after they commit
/// (``syncNow()``). Searches never wait for a sync: they read the replica as its last sync left it.
final class ReplicaFollower: Service, Sendable {
    let replica: IndexReplica
    private let interval: Duration
    private let metrics: ServiceMetrics
    private let logger: Logger

    init(replica: IndexReplica, interval: Double, metrics: ServiceMetrics, logger: Logger) {
        self.replica = replica
        self.interval = .milliseconds(Int64(max(interval, 0.05) * 1000))
        self.metrics = metrics
        self.logger = logger
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.listen() }
                group.addTask { await self.poll() }
                await group.waitForAll()
            }
        }
    }

    /// Syncs now; a failure is logged and counted (the replica keeps its generation).
    func syncNow() async {
        do {
            let sync = try await replica.sync()
            metrics.replicaGeneration.record(sync.generation)
            metrics.replicaLag.record(0)
            if sync.rebuilt != nil { metrics.replicaRebuilds.increment() }
            if sync.from != sync.generation {
                logger.info(
                    "index replica synced",
                    metadata: [
                        "generation": "\(sync.generation)", "written": "\(sync.written)", "removed": "\(sync.removed)",
                        "rebuilt": "\(sync.rebuilt?.rawValue ?? "no")",
                        "seconds": "\(String(format: "%.3f", sync.seconds))",
                    ])
            }
        } catch {
            metrics.replicaSyncFailures.increment()
            logger.warning("index replica sync failed", metadata: ["reason": "\(error)"])
        }
    }

    /// Syncs at every notification; listens again a second after the connection failed.
    private func listen() async {
        while !Task.isCancelled {
            do {
                try await replica.database.listenForPublishes { [self] _ in await syncNow() }
            } catch {
                logger.info("listening for publishes failed; polling meanwhile", metadata: ["reason": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Every interval: how far the replica is behind (the lag gauge), and a sync when it is.
    private func poll() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            guard let head = try? await replica.database.indexHead() else { continue }
            let lag = head.generation - (replica.generation ?? 0)
            metrics.replicaLag.record(max(lag, 0))
            if lag != 0 { await syncNow() }
        }
    }
}
