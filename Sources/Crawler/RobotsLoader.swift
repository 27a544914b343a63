import Fetching
import Foundation
import Robots
import Store

/// What a host's robots.txt allows, after RFC 9309 §2.3.1's HTTP rules.
package enum RobotsStatus: Sendable, Hashable {
    /// A file was fetched and parsed: its rules apply.
    case rules(RobotsTxt)
    /// No rules apply (4xx other than 429, or too many redirects): everything is allowed.
    case allowAll(reason: String)
    /// The file could not be read (5xx, 429, timeout, network error): nothing is allowed
    /// until a retry succeeds. Never cached.
    case unavailable(reason: String, retryAfter: Double?)
    /// The host's address is one the address policy refuses (loopback, private, link-local or another
    /// special range, without `--allow-private-network`): nothing of it may be fetched, and a retry
    /// cannot change that. Never cached.
    case refused(reason: String)

    /// The decision for `url`; `unavailable` and `refused` disallow everything (except robots.txt itself).
    package func decision(for url: String, productToken: String) -> RobotsTxt.Decision {
        switch self {
        case .rules(let robots):
            return robots.decision(for: url, userAgent: productToken)
        case .allowAll:
            return RobotsTxt.Decision(allowed: true, group: nil, rule: nil)
        case .unavailable, .refused:
            return RobotsTxt.Decision(allowed: false, group: nil, rule: nil)
        }
    }

    /// A short key for logs and the store: `rules`, `allow-all`, `unavailable`, `refused`.
    package var key: String {
        switch self {
        case .rules: "rules"
        case .allowAll: "allow-all"
        case .unavailable: "unavailable"
        case .refused: "refused"
        }
    }
}

/// Fetches robots.txt with the HTTP semantics of RFC 9309 and SPEC §3.
package enum RobotsLoader {
    /// The result of one attempt: the status, the request log, and the copy to cache (only
    /// for answers that may be cached: a parsed file or a 4xx).
    package struct Attempt: Sendable {
        /// What applies now.
        package var status: RobotsStatus
        /// The HTTP status of the final response, if one arrived.
        package var httpStatus: Int?
        /// The URLs requested (robots.txt and any redirect hops) with their outcomes.
        package var log: [FetchLogEntry]
        /// The copy to keep, when the answer may be cached.
        package var cacheEntry: HostFile?
    }

    /// The store name of robots.txt copies.
    package static let fileName = "robots.txt"

    /// Fetches `origin/robots.txt` (`origin` is `scheme://host[:port]`), following up to
    /// five redirects (cross-host too; each hop under the fetcher's address policy).
    package static func fetch(origin: String, fetcher: Fetcher, now: Double) async -> Attempt {
        let url = origin + "/robots.txt"
        let started = ContinuousClock.now
        do {
            let redirected = try await fetcher.fetchFollowingRedirects(FetchRequest(url: url), maxHops: 5)
            let response = redirected.response
            let seconds = (ContinuousClock.now - started).seconds
            let log = FetchLogEntry(
                url: url, at: now, httpStatus: response.status, bytes: response.body.count, seconds: seconds,
                outcome: .robotsFile, detail: redirected.chain.count > 1 ? "via \(response.url)" : nil)
            switch response.status {
            case 200...299:
                let robots = RobotsTxt(response.body)
                let entry = HostFile(
                    host: origin, name: fileName, fetchedAt: now, httpStatus: response.status,
                    body: Array(response.body.prefix(RobotsTxt.maxBytes)), detail: "rules")
                return Attempt(status: .rules(robots), httpStatus: response.status, log: [log], cacheEntry: entry)
            case 429, 500...599:
                let retryAfter = RetryAfter.seconds(response.headers["Retry-After"], now: now)
                return Attempt(
                    status: .unavailable(reason: "robots.txt answered \(response.status)", retryAfter: retryAfter),
                    httpStatus: response.status, log: [log], cacheEntry: nil)
            case 400...499:
                let entry = HostFile(
                    host: origin, name: fileName, fetchedAt: now, httpStatus: response.status, body: nil,
                    detail: "allow-all")
                return Attempt(
                    status: .allowAll(reason: "robots.txt answered \(response.status)"), httpStatus: response.status,
                    log: [log], cacheEntry: entry)
            default:
                // 1xx or a 3xx without a Location: RFC 9309 has no rule; treat as unreachable.
                return Attempt(
                    status: .unavailable(reason: "robots.txt answered \(response.status)", retryAfter: nil),
                    httpStatus: response.status, log: [log], cacheEntry: nil)
            }
        } catch let error as FetchError {
            let seconds = (ContinuousClock.now - started).seconds
            let log = FetchLogEntry(
                url: url, at: now, httpStatus: nil, bytes: 0, seconds: seconds, outcome: .robotsFile,
                detail: error.description)
            switch error.kind {
            case .tooManyRedirects, .redirectLoop:
                // RFC 9309 §2.3.1.2: more than five redirects MAY be taken as "unavailable" (4xx).
                return Attempt(
                    status: .allowAll(reason: "robots.txt redirects too often"), httpStatus: nil, log: [log],
                    cacheEntry: nil)
            case .addressNotAllowed:
                return Attempt(
                    status: .refused(reason: "robots.txt: \(error.message)"), httpStatus: nil, log: [log],
                    cacheEntry: nil)
            default:
                return Attempt(
                    status: .unavailable(reason: "robots.txt: \(error.message)", retryAfter: nil), httpStatus: nil,
                    log: [log], cacheEntry: nil)
            }
        } catch {
            return Attempt(
                status: .unavailable(reason: "robots.txt: \(error)", retryAfter: nil), httpStatus: nil, log: [],
                cacheEntry: nil)
        }
    }

    /// The ``HostRobotsState/final`` of a host given up because its robots.txt could not be read.
    package static let unavailableKey = "unavailable"
    /// The ``HostRobotsState/final`` of a host whose address the address policy refuses.
    package static let refusedKey = "refused"

    /// The status of a host the pass gave up on (by any worker), if it did.
    static func givenUp(_ state: HostRobotsState) -> RobotsStatus? {
        switch state.final {
        case unavailableKey?: .unavailable(reason: state.detail ?? "robots.txt unavailable", retryAfter: nil)
        case refusedKey?: .refused(reason: state.detail ?? "address refused")
        default: nil
        }
    }

    /// The status a cached copy gives, when it is younger than `lifetime` seconds.
    package static func cached(_ file: HostFile?, now: Double, lifetime: Double) -> RobotsStatus? {
        guard let file, now - file.fetchedAt < min(lifetime, 24 * 3600), now >= file.fetchedAt else { return nil }
        switch file.detail {
        case "rules": return .rules(RobotsTxt(file.body ?? []))
        case "allow-all": return .allowAll(reason: "robots.txt answered \(file.httpStatus ?? 404) (cached)")
        default: return nil
        }
    }
}
