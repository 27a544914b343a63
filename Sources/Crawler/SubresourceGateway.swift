import DequeModule
import Fetching
import Foundation
import Renderer
import Robots
import Scope

/// Answers the requests a rendered page makes, through the crawl's own ``Fetcher``: its user agent, address
/// policy, size limits and timeouts, robots.txt for the crawl's product token, and a spacing between request
/// starts per host. The browser reaches no network itself.
///
/// One gateway serves a whole crawl pass (or one `validate --render`): robots.txt is read once per host, and
/// a script or style sheet once per URL, kept in a byte-bounded cache (oldest first out) that every page of
/// the pass is served from; requests for one URL that arrive while it is being fetched share that fetch.
package actor SubresourceGateway {
    /// What became of one request, for the counters.
    package enum Provenance: String, Sendable {
        case fetched, cached, refused
    }

    private let fetcher: Fetcher
    private let productToken: String
    private let spacing: Duration
    private let maximumBodyBytes: Int
    private let cacheLimit: Int
    private var robots: [String: Task<RobotsStatus, Never>] = [:]
    private var cache: [String: Task<SubresourceAnswer, Never>] = [:]
    private var cacheOrder = Deque<(url: String, bytes: Int)>()
    private var cachedBytes = 0
    private var nextStart: [String: ContinuousClock.Instant] = [:]

    /// - Parameters:
    ///   - spacing: the least time between two request starts to one host (the crawl's `--delay`).
    ///   - maximumBodyBytes: the largest body one request may bring.
    ///   - cacheLimit: the bytes of scripts and style sheets kept for the pass.
    package init(
        fetcher: Fetcher, productToken: String, spacing: Duration = .zero, maximumBodyBytes: Int = 8 << 20,
        cacheLimit: Int = 64 << 20
    ) {
        self.fetcher = fetcher
        self.productToken = productToken
        self.spacing = spacing
        self.maximumBodyBytes = maximumBodyBytes
        self.cacheLimit = cacheLimit
    }

    /// Makes `status` the robots.txt status of `origin` for the pass, unless one is known: the crawl loop
    /// has read the page's own host's already.
    package func learnRobots(_ status: RobotsStatus, of origin: String) {
        if robots[origin] == nil { robots[origin] = Task { status } }
    }

    /// The robots.txt status of `origin`, read once per gateway.
    package func robotsStatus(of origin: String) async -> RobotsStatus {
        if let known = robots[origin] { return await known.value }
        let fetcher = fetcher
        let task = Task {
            await RobotsLoader.fetch(origin: origin, fetcher: fetcher, now: Date().timeIntervalSince1970).status
        }
        robots[origin] = task
        return await task.value
    }

    /// Why robots.txt refuses `url` to the crawler, or `nil` when it allows it.
    package func robotsRefusal(of url: String) async -> String? {
        guard let parsed = try? CrawlURL(url) else { return "not a crawlable URL" }
        let status = await robotsStatus(of: parsed.hostKey)
        let decision = status.decision(for: parsed.string, productToken: productToken)
        guard !decision.allowed else { return nil }
        switch status {
        case .unavailable(let reason, _): return "robots.txt could not be read (\(reason))"
        case .refused(let reason): return "the address policy refuses the host (\(reason))"
        case .rules, .allowAll:
            guard let rule = decision.rule else { return "robots.txt disallows it" }
            return "robots.txt disallows it (\(rule.allow ? "Allow" : "Disallow"): \(rule.pattern), line \(rule.line))"
        }
    }

    /// Answers `request`: refused when it is not a `GET` of an http(s) URL or robots.txt disallows it, from the
    /// cache for a script or style sheet fetched before, else fetched.
    package func answer(_ request: SubresourceRequest) async -> (SubresourceAnswer, Provenance) {
        guard request.method == "GET" else {
            return (.refused(reason: "only GET requests are made, not \(request.method)"), .refused)
        }
        guard let parsed = try? CrawlURL(request.url) else {
            return (.refused(reason: "not an http or https URL Searchlight fetches"), .refused)
        }
        if let refusal = await robotsRefusal(of: request.url) { return (.refused(reason: refusal), .refused) }
        let cacheable = request.resourceType == "Script" || request.resourceType == "Stylesheet"
        if cacheable, let cached = cache[request.url] {
            return (await cached.value, .cached)
        }
        let origin = parsed.hostKey
        let start = turn(for: origin)
        let fetcher = fetcher
        let limit = maximumBodyBytes
        let url = request.url
        let task = Task { await Self.fetch(url, with: fetcher, maximumBodyBytes: limit, notBefore: start) }
        if cacheable { cache[url] = task }
        let answer = await task.value
        if cacheable { keep(url, answer) }
        if case .refused = answer { return (answer, .refused) }
        return (answer, .fetched)
    }

    /// The time the next request to `origin` may start, taking the turn.
    private func turn(for origin: String) -> ContinuousClock.Instant {
        let now = ContinuousClock.now
        let start = max(now, nextStart[origin] ?? now)
        nextStart[origin] = start + spacing
        return start
    }

    /// Counts a cached answer's bytes in, dropping the oldest entries past the limit; a refusal is not kept.
    private func keep(_ url: String, _ answer: SubresourceAnswer) {
        guard case .response(_, _, let body) = answer, body.count <= cacheLimit else {
            cache[url] = nil
            return
        }
        cacheOrder.append((url, body.count))
        cachedBytes += body.count
        while cachedBytes > cacheLimit, let oldest = cacheOrder.popFirst() {
            cachedBytes -= oldest.bytes
            cache[oldest.url] = nil
        }
    }

    private static func fetch(
        _ url: String, with fetcher: Fetcher, maximumBodyBytes: Int, notBefore start: ContinuousClock.Instant
    ) async -> SubresourceAnswer {
        if start > .now { try? await Task.sleep(until: start, clock: .continuous) }
        do {
            let response = try await fetcher.fetch(FetchRequest(url: url, maxBodySize: maximumBodyBytes))
            return .response(status: response.status, headers: browserHeaders(response.headers), body: response.body)
        } catch let error as FetchError {
            switch error.kind {
            case .addressNotAllowed: return .refused(reason: "the address policy refuses it (\(error.message))")
            default: return .refused(reason: "\(error.kind.counterKey): \(error.message)")
            }
        } catch {
            return .refused(reason: "\(error)")
        }
    }

    /// The response's header fields as the browser should see them: the body is already decoded and whole,
    /// so the fields that describe its transfer are left out.
    static func browserHeaders(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        let transfer: Set<String> = [
            "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive",
        ]
        return headers.filter { !transfer.contains($0.name.lowercased()) }.map { (name: $0.name, value: $0.value) }
    }
}
