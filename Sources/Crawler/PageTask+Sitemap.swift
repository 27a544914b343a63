import Fetching
import Markup
import Store

extension PageTask {
    /// A 2xx sitemap: its pages join the frontier at depth 1, its child sitemaps one
    /// level deeper (bounded by ``CrawlConfiguration/maxSitemapDepth``).
    static func sitemap(_ response: FetchResponse, url: FrontierURL, context: PageContext, into result: PageResult)
        -> PageResult
    {
        var result = result
        let hash = ContentHash.of(response.body)
        result.completion.contentHash = hash
        result.completion.replacesValidators(
            etag: response.headers["ETag"],
            lastModified: ConditionalValidators.lastModified(
                response.headers["Last-Modified"], date: response.headers["Date"]))
        let known = context.knownSitemapEntries
        if known != nil, hash == url.contentHash { return unchangedSitemap(into: result) }
        // Entries as at the last read are only counted and fingerprinted by the reader, not listed.
        let sitemap = SitemapReader.read(
            response.body, url: response.url, contentType: response.contentType,
            isKnown: known.map { known in { known.contains(digest: $0) } })
        result.counters.sitemapsRead += 1
        result.counters.sitemapURLs += sitemap.pageCount
        result.completion.outcome = .sitemap
        var notes: [String] = []
        if let format = sitemap.format { notes.append("\(format.rawValue): \(sitemap.pageCount) URLs") }
        if !sitemap.childSitemaps.isEmpty { notes.append("\(sitemap.childSitemaps.count) child sitemaps") }
        if sitemap.isTruncated { notes.append("truncated at a limit") }
        if let issue = sitemap.issues.first {
            notes.append("\(sitemap.issues.count) issue(s), first: \(issue.message)")
        }

        var rejections = LinkFilter.Rejections()
        result.candidates.reserveCapacity(sitemap.pages.count)
        var sharedHost = ""
        // No date later than the read: a sitemap that dates an entry in the future would make it due forever.
        let readAt = result.completion.fetchedAt ?? .infinity
        for entry in sitemap.pages {
            if var candidate = context.links.candidate(
                entry.url, kind: .page, depth: 1, source: .sitemap, from: url.url, rejections: &rejections)
            {
                // A sitemap lists up to 50,000 URLs of (nearly always) one host: one copy of its name.
                if candidate.host == sharedHost { candidate.host = sharedHost } else { sharedHost = candidate.host }
                candidate.sitemapLastModified = entry.lastModified.flatMap(SitemapDate.seconds).map { min($0, readAt) }
                result.candidates.append(candidate)
            }
        }
        if url.depth < context.configuration.maxSitemapDepth {
            for entry in sitemap.childSitemaps {
                if let candidate = context.links.candidate(
                    entry.url, kind: .sitemap, depth: url.depth + 1, source: .sitemap, from: url.url,
                    rejections: &rejections)
                {
                    result.candidates.append(candidate)
                }
            }
        } else if !sitemap.childSitemaps.isEmpty {
            rejections.counts[.sitemapDepth, default: 0] += sitemap.childSitemaps.count
        }
        result.counters.skip(rejections)
        if sitemap.knownPages > 0 { notes.append("\(sitemap.knownPages) URLs as at the last read") }
        result.completion.detail = notes.joined(separator: "; ")
        result.sitemapEntries = HostFile(
            host: url.host, name: SitemapEntryDigest.fileName(for: url.url),
            fetchedAt: result.completion.fetchedAt ?? 0,
            httpStatus: response.status, body: SitemapEntryDigest(digests: sitemap.pageFingerprints).body,
            detail: SitemapEntryDigest.detail(fingerprint: context.links.fingerprint, count: sitemap.pageCount))
        return result
    }

    /// A sitemap unchanged since its last fetch (304, or the same bytes) in a refresh pass: its URLs and
    /// dates were stored when it was read, and the pages it made due were queued at the pass's start.
    static func unchangedSitemap(into result: PageResult) -> PageResult {
        var result = result
        result.completion.outcome = .sitemapUnchanged
        result.counters.sitemapsUnchanged += 1
        return result
    }
}
