import Foundation
import Store
import Testing

/// Watches a crawl's store for the two holds that stall many workers: a worker keeping a host's slot while it
/// has none of the host's URLs to send through it, and a worker keeping URLs of a host while it holds none of
/// the host's slots. Each may last an instant (between two transactions of one worker); either lasting
/// ``limit`` is reported.
struct HoldingMonitor: Sendable {
    let storage: CrawlStoreUnderTest
    /// How long a hold may last before it counts.
    var limit = 2.0
    /// Lease owners not judged (a test's own gatekeeper).
    var ignoring: Set<String> = []

    /// One hold that lasted too long.
    struct Hold: Sendable, Hashable, CustomStringConvertible {
        var owner: String
        var host: String
        var what: String
        var description: String { "\(owner) kept \(what) of \(host) for over the limit" }
    }

    /// Samples the store until cancelled; returns the holds that lasted ``limit`` or longer.
    func watch() async throws -> [Hold] {
        var since: [Hold: Double] = [:]
        var found: Set<Hold> = []
        while !Task.isCancelled {
            let now = Date().timeIntervalSince1970
            let current: Set<Hold>
            do {
                current = try await sample(now: now)
            } catch {
                // A read cut short by the end of the watch is no failure of the store.
                if Task.isCancelled { break }
                throw error
            }
            since = since.filter { current.contains($0.key) }
            for hold in current where !ignoring.contains(hold.owner) {
                let start = since[hold] ?? now
                since[hold] = start
                if now - start >= limit { found.insert(hold) }
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return found.sorted { $0.description < $1.description }
    }

    /// The holds at `now`: slots without URLs, and URLs without a slot.
    func sample(now: Double) async throws -> Set<Hold> {
        let idleSlots = try await storage.rows(
            """
            SELECT l.owner, l.host FROM host_lease AS l
            WHERE l.name LIKE 'slot:%' AND l.until > \(now) AND NOT EXISTS (
                SELECT 1 FROM crawl_url AS c
                WHERE c.state = 'queued' AND c.host = l.host AND c.lease_owner = l.owner AND c.lease_until > \(now))
            """)
        let stranded = try await storage.rows(
            """
            SELECT DISTINCT c.lease_owner AS owner, c.host FROM crawl_url AS c
            WHERE c.state = 'queued' AND c.lease_owner IS NOT NULL AND c.lease_until > \(now) AND NOT EXISTS (
                SELECT 1 FROM host_lease AS l
                WHERE l.name LIKE 'slot:%' AND l.host = c.host AND l.owner = c.lease_owner AND l.until > \(now))
            """)
        var holds = Set<Hold>()
        for row in idleSlots {
            holds.insert(Hold(owner: row["owner"] ?? "", host: row["host"] ?? "", what: "a slot and no URL"))
        }
        for row in stranded {
            holds.insert(Hold(owner: row["owner"] ?? "", host: row["host"] ?? "", what: "URLs and no slot"))
        }
        return holds
    }
}
