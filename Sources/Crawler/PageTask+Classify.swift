import Fetching
import Store

extension PageTask {
    /// Decides what a response means for the frontier: a page, a redirect to queue, a
    /// retry, a gone page, or a final answer that indexes nothing.
    /// - Parameter rendering: what the renderer made of the page, when it ran (``PageTask/render(_:url:context:)``).
    static func classify(
        _ response: FetchResponse, url: FrontierURL, context: PageContext, now: Double,
        rendering: PageRenderer.Outcome? = nil
    ) -> PageResult {
        let status = response.status
        var result = PageResult(
            frontier: url,
            completion: CrawlBatch.Completion(
                id: url.id, state: .done, outcome: .httpStatus(status), httpStatus: status, attempts: url.attempts + 1,
                fetchedAt: now),
            log: FetchLogEntry(
                url: url.url, at: now, httpStatus: status, bytes: 0, seconds: 0, outcome: .pending, detail: nil))
        if url.kind == .page { result.counters.pagesFetched += 1 }
        switch status {
        case 200...299:
            return url.kind == .sitemap
                ? sitemap(response, url: url, context: context, into: result)
                : page(response, url: url, context: context, now: now, rendering: rendering, into: result)
        case 304 where url.kind == .page && url.contentHash != nil:
            return unchanged(url: url, context: context, into: result)
        case 304 where url.kind == .sitemap && context.knownSitemapEntries != nil && url.contentHash != nil:
            return unchangedSitemap(into: result)
        case 300...399:
            return redirect(response, url: url, context: context, into: result)
        case 404, 410:
            result.completion.outcome = .gone
            if url.kind == .page {
                result.gone = GonePage(url: url.url, httpStatus: status, fetchedAt: now)
                result.counters.pagesGone += 1
            }
            return result
        case 429, 500...599:
            let retryAfter = RetryAfter.seconds(response.headers["Retry-After"], now: now).map {
                min($0, context.configuration.maxRetryAfter)
            }
            if status == 429 || status == 503, let retryAfter { result.hostPause = retryAfter }
            if url.attempts + 1 < context.configuration.maxAttempts {
                result.completion.state = .queued
                result.completion.outcome = .retryHTTPStatus(status)
                let wait = retryAfter ?? context.configuration.backoff(attempt: url.attempts + 1)
                result.completion.notBefore = now + wait
                result.counters.retries += 1
            } else {
                result.completion.state = .failed
                result.counters.fail("http-\(status)")
            }
            return result
        default:
            result.counters.fail("http-\(status)")
            return result
        }
    }

    /// A 3xx: the target is queued as a URL of its own, so that scope, robots, politeness
    /// and deduplication apply to every hop (SPEC §3), and the hop is recorded.
    static func redirect(_ response: FetchResponse, url: FrontierURL, context: PageContext, into result: PageResult)
        -> PageResult
    {
        var result = result
        result.completion.outcome = .redirect
        guard let location = response.location else {
            result.completion.detail = "a \(response.status) without a usable Location"
            result.counters.fail("bad-redirect")
            return result
        }
        result.counters.redirects += 1
        result.completion.detail = location
        guard url.redirectHops < 5 else {
            result.completion.outcome = .redirectLimit
            result.counters.skip(.redirectLimit)
            return result
        }
        var rejections = LinkFilter.Rejections()
        // A pending activity web page is verified wherever it leads (http → https, a www. host):
        // its redirect hops are fetched on any site, as it is; robots and the address policy
        // still apply to each hop.
        let fromActivity =
            url.source.isActivity
        if let target = context.links.candidate(
            location, kind: url.kind, depth: url.depth,
            source: fromActivity ? .activityRedirect : .redirect, from: url.url,
            redirectHops: url.redirectHops + 1, checkingSite: !fromActivity, rejections: &rejections)
        {
            result.candidates.append(target)
            result.redirect = StoredRedirect(from: url.url, to: target.url, httpStatus: response.status)
        } else {
            result.completion.outcome = .redirectOutOfScope
            result.counters.skip(rejections)
        }
        return result
    }

    /// A 304 (or, from ``page``, the same content hash): the stored page stands; its stored
    /// links are followed again so the re-crawl still reaches everything.
    static func unchanged(url: FrontierURL, context: PageContext, into result: PageResult) -> PageResult {
        var result = result
        result.unchanged = true
        result.completion.outcome = .unchanged
        result.counters.pagesUnchanged += 1
        var rejections = LinkFilter.Rejections()
        for link in (url.storedLinks ?? "").split(separator: "\n") {
            if let candidate = context.links.candidate(
                String(link), kind: .page, depth: url.depth + 1, source: .link, from: url.url,
                rejections: &rejections)
            {
                result.candidates.append(candidate)
            }
        }
        result.counters.skip(rejections)
        return result
    }
}
