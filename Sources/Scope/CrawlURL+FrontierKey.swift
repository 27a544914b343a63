internal import URLCanonical

extension CrawlURL {
    /// The crawl frontier's dedup key: the SPEC §4 canonical key of ``string`` (URLCanonical's
    /// `canonicalKey`: tracking parameters dropped, parameters sorted, empty ones removed), or
    /// ``string`` itself if the WHATWG parser refused it.
    ///
    /// Without a query this is ``string`` as it is, without parsing again: the normalization of
    /// ``CrawlURL`` already does all the key does to the scheme, host, port, path and fragment (the
    /// tests check the two agree on every http/https URL of the WHATWG URL corpus). The WHATWG parse
    /// costs about 15 µs a URL, more than the rest of a link's handling, and most links have no query.
    package var frontierKey: String {
        query == nil ? string : canonicalFrontierKey
    }

    /// The key computed by URLCanonical, with no shortcut.
    package var canonicalFrontierKey: String {
        canonicalKey(string) ?? string
    }
}
