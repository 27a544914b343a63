import StableHash

/// A stable 64-bit fingerprint of a page entry: FNV-1a (64-bit) over its URL's UTF-8, a 0 byte, and its
/// date's UTF-8 as written (nothing when it has none), both trimmed as ``SitemapEntry`` holds them.
///
/// The same in every process and every version: a crawler keeps the fingerprints of a sitemap's entries
/// from one read to the next (``SitemapReader/read(_:url:contentType:limits:isKnown:)``).
package enum SitemapFingerprint {
    /// The fingerprint of `entry`.
    package static func of(_ entry: SitemapEntry) -> UInt64 {
        var url = entry.url
        var date = entry.lastModified ?? ""
        return url.withUTF8 { url in date.withUTF8 { date in of(url: url, lastModified: date) } }
    }

    /// The fingerprint of the entry with these bytes of URL and date (empty: no date).
    package static func of(url: UnsafeBufferPointer<UInt8>, lastModified: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(url)
        hasher.add(0)
        hasher.add(lastModified)
        return hasher.value
    }
}
