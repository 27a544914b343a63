extension CrawlCounters {
    enum CodingKeys: String, CodingKey {
        case pagesFetched, pagesIndexed, pagesUnchanged, pagesChanged, pagesRevisited, pagesGone, redirects, bytes,
            sitemapsRead, sitemapsUnchanged,
            sitemapURLs, robotsFetched, retries, skipped, errors, earlierSeconds, rendering, subresources
    }

    /// Reads counters as stored with a pass's workers; a counter the writing version did not have yet reads
    /// as 0, so a pass resumed by a newer version keeps what its earlier workers counted.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int { try container.decodeIfPresent(Int.self, forKey: key) ?? 0 }
        self.init()
        pagesFetched = try count(.pagesFetched)
        pagesIndexed = try count(.pagesIndexed)
        pagesUnchanged = try count(.pagesUnchanged)
        pagesChanged = try count(.pagesChanged)
        pagesRevisited = try count(.pagesRevisited)
        pagesGone = try count(.pagesGone)
        redirects = try count(.redirects)
        bytes = try count(.bytes)
        sitemapsRead = try count(.sitemapsRead)
        sitemapsUnchanged = try count(.sitemapsUnchanged)
        sitemapURLs = try count(.sitemapURLs)
        robotsFetched = try count(.robotsFetched)
        retries = try count(.retries)
        skipped = try container.decodeIfPresent([String: Int].self, forKey: .skipped) ?? [:]
        errors = try container.decodeIfPresent([String: Int].self, forKey: .errors) ?? [:]
        earlierSeconds = try container.decodeIfPresent(Double.self, forKey: .earlierSeconds) ?? 0
        rendering = try container.decodeIfPresent([String: Int].self, forKey: .rendering) ?? [:]
        subresources = try container.decodeIfPresent([String: Int].self, forKey: .subresources) ?? [:]
    }
}
