import Fetching
import Foundation
import Items
import Markup
import Renderer
import Scope
import Store

extension PageTask {
    /// Links followed from one page at most; the rest are counted as skipped (`links-cap`).
    static let maxLinksPerPage = 5000

    /// A 2xx page: HTML is extracted (unless its content hash is unchanged), its links
    /// followed unless `nofollow`, and stored indexable unless `noindex`.
    static func page(
        _ response: FetchResponse, url: FrontierURL, context: PageContext, now: Double,
        rendering: PageRenderer.Outcome? = nil, into result: PageResult
    ) -> PageResult {
        var result = result
        let contentType = response.contentType
        guard Self.isHTML(contentType: contentType, body: response.body) else {
            result.completion.outcome = .unsupportedType
            result.completion.detail = contentType ?? "no Content-Type"
            result.counters.skip(.type)
            return result
        }
        let hash = ContentHash.of(response.body)
        result.completion.contentHash = hash
        result.completion.replacesValidators(
            etag: response.headers["ETag"],
            lastModified: ConditionalValidators.lastModified(
                response.headers["Last-Modified"], date: response.headers["Date"]))
        if hash == url.contentHash {
            return unchanged(url: url, context: context, into: result)
        }
        let markup: PageMarkup
        let extractedItem: SearchableItem
        if let rendering {
            if let decision = rendering.decision { result.counters.rendering[decision.rawValue, default: 0] += 1 }
            for (key, count) in rendering.subresources { result.counters.subresources[key, default: 0] += count }
            if let error = rendering.error {
                return renderFailure(error, url: url, context: context, now: now, into: result)
            }
            (markup, extractedItem) = (rendering.markup, rendering.item)
        } else {
            let headers = response.headers.map { (name: $0.name, value: $0.value) }
            (markup, extractedItem) = PageExtraction.item(bytes: response.body, url: response.url, headers: headers)
        }
        if url.contentHash != nil { result.counters.pagesChanged += 1 }

        var links: [String] = []
        if markup.robots.follow {
            var rejections = LinkFilter.Rejections()
            var seen = Set<String>()
            for link in markup.links where !link.nofollow {
                guard seen.insert(link.url).inserted else { continue }
                guard links.count < maxLinksPerPage else {
                    rejections.add(.linksCap)
                    continue
                }
                if let candidate = context.links.candidate(
                    link.url, kind: .page, depth: url.depth + 1, source: .link, from: url.url,
                    rejections: &rejections)
                {
                    result.candidates.append(candidate)
                    links.append(candidate.url)
                }
            }
            result.counters.skip(rejections)
        }

        var item = extractedItem
        if let rules = context.universalLinks {
            for appID in rules.appIDs(matching: response.url) {
                item.deepLinks.append(DeepLink(kind: .universalLink, url: response.url, appID: appID))
            }
        }
        let indexable = markup.robots.index
        result.page = StoredPage(
            url: url.url, finalURL: response.url,
            canonicalURL: markup.canonicalURL.flatMap { CrawlURL.normalize($0) },
            httpStatus: response.status, contentType: contentType, isIndexable: indexable,
            notIndexedReason: indexable ? nil : "noindex", title: item.attributeSet.title,
            itemJSON: indexable ? item.jsonText : nil, links: links.joined(separator: "\n"),
            contentHash: hash, fetchedAt: now, isRendered: rendering?.isRendered ?? false)
        if indexable {
            result.completion.outcome = .indexed
            result.counters.pagesIndexed += 1
        } else {
            result.completion.outcome = .noindex
            result.counters.skip(.noindex)
        }
        return result
    }

    /// A page whose render failed: nothing is stored (an earlier copy stands, and the page is rendered again
    /// at its next visit). A crashed or missing browser is retried like a transient network failure; a page
    /// that passed its budget, made too many requests or bytes, navigated away or opened a window fails for good.
    static func renderFailure(
        _ error: RenderError, url: FrontierURL, context: PageContext, now: Double, into result: PageResult
    ) -> PageResult {
        var result = result
        let key = "render-\(error.key)"
        result.completion.outcome = .error(key)
        result.completion.detail = error.description
        // The stored copy's hash and validators stay, so the next visit sees the page as changed and renders it.
        result.completion.contentHash = nil
        result.completion.replacesValidators(etag: url.etag, lastModified: url.lastModified)
        let transient: Bool
        switch error {
        case .crashed, .unavailable, .browser: transient = true
        default: transient = false
        }
        if transient, url.attempts + 1 < context.configuration.maxAttempts {
            result.completion.state = .queued
            result.completion.notBefore = now + context.configuration.backoff(attempt: url.attempts + 1)
            result.counters.retries += 1
        } else {
            result.completion.state = .failed
            result.counters.fail(key)
        }
        return result
    }

    /// Whether a response is an HTML page: by `Content-Type`, or by its first bytes when
    /// the header is missing.
    static func isHTML(contentType: String?, body: [UInt8]) -> Bool {
        if let contentType {
            let mime = contentType.split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            return mime == "text/html" || mime == "application/xhtml+xml"
        }
        // Skip a UTF-8 BOM and whitespace, then expect markup.
        var index = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < body.count, [0x20, 0x09, 0x0A, 0x0D].contains(body[index]) { index += 1 }
        return index < body.count && body[index] == UInt8(ascii: "<")
    }
}
