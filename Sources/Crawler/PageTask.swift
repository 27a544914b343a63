import Fetching
import Foundation
import Store

/// The result of fetching one frontier URL: what to write, what it found, and what the
/// scheduler must know (a host-wide pause from `Retry-After`).
struct PageResult: Sendable {
    var frontier: FrontierURL
    var completion: CrawlBatch.Completion
    var page: StoredPage?
    var unchanged = false
    var gone: GonePage?
    var candidates: [FrontierCandidate] = []
    var redirect: StoredRedirect?
    /// A sitemap's entries as read (``SitemapEntryDigest``), kept with the host's files.
    var sitemapEntries: HostFile?
    /// The request's fetch-log line (set by ``PageTask/run(_:fetcher:context:now:)``).
    var log: FetchLogEntry?
    /// Seconds the whole host should pause (429/503 with `Retry-After`).
    var hostPause: Double?
    /// Counter changes this result brings.
    var counters = CrawlCounters()
}

/// Everything a page task needs besides the URL, shared read-only by all tasks.
struct PageContext: Sendable {
    let configuration: CrawlConfiguration
    let links: LinkFilter
    /// The host's universal-link rules, when it serves a valid file.
    let universalLinks: UniversalLinkRules?
    /// In a refresh pass, what the sitemap being fetched listed at its last read under the same scope. The
    /// sitemap is then asked conditionally, not read again when unchanged (304, or the same bytes: its
    /// dates were stored then), and of a changed one only the entries not listed the same way are handed on.
    var knownSitemapEntries: SitemapEntryDigest? = nil
    /// Renders pages the render rule picks; `nil` with `--render never`.
    var renderer: PageRenderer? = nil
    /// The host's robots.txt status at dispatch, handed to the renderer so it is not read again.
    var robots: RobotsStatus? = nil
}

/// Fetches one frontier URL and classifies the answer (SPEC §3).
enum PageTask {
    static func run(_ url: FrontierURL, fetcher: Fetcher, context: PageContext, now: Double) async -> PageResult {
        let conditional = (url.kind == .page || context.knownSitemapEntries != nil) && url.contentHash != nil
        let request = FetchRequest(
            url: url.url,
            ifNoneMatch: conditional ? url.etag : nil,
            ifModifiedSince: conditional ? url.lastModified : nil,
            maxBodySize: url.kind == .sitemap ? context.configuration.maxSitemapBytes : nil)
        let started = ContinuousClock.now
        do {
            let response = try await fetcher.fetch(request)
            let seconds = (ContinuousClock.now - started).seconds
            let rendering = await render(response, url: url, context: context)
            var result = classify(response, url: url, context: context, now: now, rendering: rendering)
            let lifetime = FreshnessLifetime.seconds(
                cacheControl: response.headers["Cache-Control"], expires: response.headers["Expires"],
                date: response.headers["Date"], now: now)
            result.scheduleNextVisit(context.configuration.revisit, lifetime: lifetime)
            result.log = FetchLogEntry(
                url: url.url, at: now, httpStatus: response.status, bytes: response.body.count, seconds: seconds,
                outcome: result.completion.outcome, detail: result.completion.detail)
            result.counters.bytes += response.body.count
            return result
        } catch {
            let fetchError =
                error as? FetchError ?? FetchError(kind: .other, url: url.url, message: String(describing: error))
            let seconds = (ContinuousClock.now - started).seconds
            var result = failure(fetchError, url: url, context: context, now: now)
            result.scheduleNextVisit(context.configuration.revisit, lifetime: nil)
            result.log = FetchLogEntry(
                url: url.url, at: now, httpStatus: nil, bytes: 0, seconds: seconds, outcome: result.completion.outcome,
                detail: fetchError.description)
            return result
        }
    }

    /// The render rule's outcome for a new or changed 2xx HTML page, when the crawl renders.
    static func render(_ response: FetchResponse, url: FrontierURL, context: PageContext) async
        -> PageRenderer.Outcome?
    {
        guard let renderer = context.renderer, url.kind == .page, (200...299).contains(response.status),
            isHTML(contentType: response.contentType, body: response.body),
            ContentHash.of(response.body) != url.contentHash
        else { return nil }
        return await renderer.process(response, robots: context.robots)
    }

    /// A transport failure: retried when transient, else final.
    static func failure(_ error: FetchError, url: FrontierURL, context: PageContext, now: Double) -> PageResult {
        let key = error.kind.counterKey
        var result = PageResult(
            frontier: url,
            completion: CrawlBatch.Completion(id: url.id, state: .failed, outcome: .error(key)))
        result.completion.detail = error.message
        result.completion.attempts = url.attempts + 1
        switch error.kind {
        case .bodyTooLarge, .decompressionRatioExceeded:
            result.completion.state = .skipped
            result.completion.outcome = .tooLarge
            result.counters.skip(.size)
        case _ where error.isTransient && url.attempts + 1 < context.configuration.maxAttempts:
            result.completion.state = .queued
            result.completion.notBefore = now + context.configuration.backoff(attempt: url.attempts + 1)
            result.counters.retries += 1
        default:
            result.counters.fail(key)
        }
        return result
    }
}

extension PageResult {
    /// Sets the completion's next visit from what this visit found (``RevisitPolicy``); a URL queued again
    /// for a retry keeps its schedule.
    mutating func scheduleNextVisit(_ policy: RevisitPolicy, lifetime: Double?) {
        guard completion.state != .queued else { return }
        let finding: RevisitPolicy.Finding
        if completion.state == .failed {
            finding = .failed
        } else if !unchanged, page != nil || (gone != nil && frontier.wasIndexable == true) {
            finding = .changed
        } else {
            finding = .unchanged
        }
        policy.scheduleNextVisit(of: frontier, after: finding, lifetime: lifetime, in: &completion)
    }
}

extension FetchError.Kind {
    /// The kebab-case key used in outcomes and counters, e.g. `connect-timeout`.
    var counterKey: String {
        var key = ""
        for character in rawValue {
            if character.isUppercase {
                key += "-" + character.lowercased()
            } else {
                key.append(character)
            }
        }
        return key
    }
}
