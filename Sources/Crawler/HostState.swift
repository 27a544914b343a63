import DequeModule
import Store
import UniversalLinks

/// The scheduler's view of one host (`scheme://host[:port]`). Only the crawl loop
/// touches it. Its memory is bounded: a small buffer of due URLs, not the host's queue,
/// which stays in the store.
struct HostState {
    /// Where the host's robots.txt stands.
    enum RobotsPhase {
        case unknown
        case loading
        case ready(RobotsStatus)
        /// Unavailable (5xx, 429, network): nothing is fetched until `until`, then it is retried.
        case blocked(until: Double, reason: String)
    }

    /// Where the host's apple-app-site-association file stands.
    enum AssociationPhase {
        case unknown
        /// Another worker is fetching it (or the host's delay is not over): look again at `until`.
        case waiting(until: Double)
        case loading
        case ready(UniversalLinkRules?)
    }

    let origin: String
    var robots = RobotsPhase.unknown
    /// robots.txt attempts of the pass that failed in a row (all workers'), when this worker fetches it.
    var robotsFailures = 0
    var association = AssociationPhase.unknown
    /// The apps the host's association file names (any service), once it is ready.
    var associatedApps = AssociatedApps()
    /// Whether the host is outside every crawl's scope: only donated URLs lead to it, and a donated URL of it
    /// is fetched only when its association file names the donating app.
    var isDonatedOnly = false
    /// Requests in flight to this host (pages, sitemaps, robots.txt, AASA).
    var inFlight = 0
    /// The host's request slots this worker holds in the store (the per-host cap across all workers).
    var heldSlots: [Int] = []
    /// How many of ``heldSlots`` a page or sitemap request in flight uses; the rest are idle.
    var busySlots = 0
    /// When the store last answered a slot request for this host (its pauses, the other workers' slots).
    var slotsCheckedAt = -Double.infinity
    /// The store had no slot for this worker: none is asked for before this time, unless one of its
    /// own requests to the host ends first (its slot is then used again).
    var slotsFullUntil = 0.0
    /// No new request starts before this time (delay, Crawl-delay, Retry-After; the store has the
    /// host's time across all workers, this is this worker's latest knowledge of it).
    var nextRequestAt = 0.0
    /// The spacing between request starts: the configured delay or the capped Crawl-delay.
    var spacing: Double
    /// URLs read from the store and not yet dispatched.
    var buffer = Deque<FrontierURL>()
    /// When the store may next have due URLs for this host: 0 = now, `.infinity` = none known.
    var dueAt = 0.0
    /// Whether robots.txt's sitemaps (and /sitemap.xml) were queued in this invocation.
    var sitemapsQueued = false
    /// Sitemap files dispatched for this host in this invocation.
    var sitemapsDispatched = 0
    /// Whether a sitemap file of this host is being fetched or read. One at a time: a sitemap may
    /// list 50,000 URLs, and several read at once would multiply the crawl's peak memory.
    var sitemapInFlight = false
    /// Sitemaps taken from the buffer while another was in flight; back to the buffer's front when it ends.
    var deferredSitemaps: [FrontierURL] = []

    init(origin: String, spacing: Double) {
        self.origin = origin
        self.spacing = spacing
    }

    /// The robots status, once known.
    var robotsStatus: RobotsStatus? {
        if case .ready(let status) = robots { return status }
        return nil
    }

    /// A slot this worker holds and no request uses, if any.
    var idleSlot: Int? {
        heldSlots.count > busySlots ? heldSlots.last : nil
    }

    /// The universal-link rules, once the file was looked at (`nil` inside when none).
    var associationReady: Bool {
        if case .ready = association { return true }
        return false
    }

    /// The earliest time this host could start a request, ignoring capacity; `nil` when it
    /// has nothing to do.
    func wakeTime(now: Double) -> Double? {
        switch robots {
        case .loading: return nil
        case .blocked(let until, _): return until
        case .unknown, .ready: break
        }
        switch association {
        case .loading: return nil
        case .waiting(let until): return max(until, now)
        case .unknown, .ready: break
        }
        // Without a slot of its own, the worker asks for one (to use, or to take URLs with) again no sooner
        // than the store said.
        let slotTime = idleSlot == nil ? slotsFullUntil : 0
        if !buffer.isEmpty { return max(nextRequestAt, slotTime, now) }
        guard dueAt.isFinite else { return nil }
        return max(nextRequestAt, dueAt, slotTime)
    }
}
