import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One `crawl` process taking part in a pass: the name its leases carry in the store.
///
/// `owner` is unique per process (machine, process id and a random part); `machine` names this
/// machine's current boot, so a worker can tell that another worker of the same machine no longer
/// runs (its process is gone) and take its URLs over at once instead of waiting for its leases to
/// run out. Workers on other machines are only ever judged by their leases.
package struct CrawlWorker: Sendable, Hashable {
    /// The lease owner written into the store.
    package var owner: String
    /// This machine (host name and boot id).
    package var machine: String
    /// The process id.
    package var pid: Int32

    /// Creates a worker identity.
    package init(owner: String, machine: String, pid: Int32) {
        self.owner = owner
        self.machine = machine
        self.pid = pid
    }

    /// The identity of this process.
    package static func current() -> CrawlWorker {
        let machine = Self.machineName()
        let pid = getpid()
        let random = UUID().uuidString.prefix(8).lowercased()
        return CrawlWorker(owner: "\(machine)/\(pid)/\(random)", machine: machine, pid: pid)
    }

    /// The host name, with the kernel's boot id so a reboot is a different machine (process ids repeat).
    static func machineName() -> String {
        let host = ProcessInfo.processInfo.hostName
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines).prefix(8)
        return boot.map { "\(host)#\($0)" } ?? host
    }

    /// Whether process `pid` of this machine still exists (a process of another user counts as existing).
    static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

/// The answer to a request for one of a host's request slots.
package enum HostSlotClaim: Sendable, Hashable {
    /// The slot is this worker's until its lease runs out; the host's next request may start after
    /// the spacing asked for.
    case granted(slot: Int)
    /// Not now: the host's next request may not start before this time (its delay, a pause).
    case wait(until: Double)
    /// Every slot is taken, or this worker holds its share (a slot it held beyond its share is given
    /// back): look again when one of its own requests to the host ends, or at this time.
    case full(until: Double)
}

/// The answer to a request for a host's once-per-pass fetch (robots.txt, apple-app-site-association).
package enum HostTaskClaim: Sendable, Hashable {
    /// This worker fetches it; the lease goes when the result is committed.
    case claimed
    /// Another worker is fetching it, or the host's delay is not over: look again at this time.
    case wait(until: Double)
}

/// How a host's robots.txt stands in a pass when no good copy could be read: shared by the workers so
/// that the retries and their backoff are the host's, not each process's.
package struct HostRobotsState: Sendable, Hashable {
    /// The host key.
    package var host: String
    /// Failed attempts in the pass so far.
    package var failures: Int
    /// No new attempt before this time.
    package var retryAt: Double
    /// Set when the host is given up for the pass: `unavailable` or `refused`.
    package var final: String?
    /// The reason, readable.
    package var detail: String?

    /// Creates a value.
    package init(host: String, failures: Int, retryAt: Double, final: String?, detail: String?) {
        self.host = host
        self.failures = failures
        self.retryAt = retryAt
        self.final = final
        self.detail = detail
    }
}

/// What a worker reads before it decides about a host's robots.txt: the cached copy, and the pass's
/// shared state when the last attempts failed.
package struct HostRobotsView: Sendable, Hashable {
    /// The stored copy (a good file or a 4xx), if any.
    package var file: HostFile?
    /// The pass's failed attempts, if any.
    package var state: HostRobotsState?
}

/// A worker's part in a pass, as the store keeps it.
package struct CrawlWorkerRecord: Sendable, Hashable {
    /// Its counters as JSON.
    package var countersJSON: String
    /// When it joined the pass.
    package var startedAt: Double
    /// When it was last seen (its last renewal or commit).
    package var seenAt: Double
    /// When it left the pass (or was found dead); `nil` while it takes part.
    package var endedAt: Double?
}
