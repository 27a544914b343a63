import Markup
import Store

/// The entries a sitemap listed when it was last read, each as its ``SitemapFingerprint`` (a stable 64-bit
/// digest of its URL and its date as written), kept with the host's files (`host_file`, named ``fileName(for:)``).
///
/// A refresh pass that finds a sitemap changed reads it whole but hands on only the entries that are not
/// in its digest: an entry listed before with the same URL and the same `lastmod` was queued (or refused
/// by the scope) and its date stored when it was first read, and a page it made due was queued at the
/// pass's start. So a sitemap of 50,000 URLs in which a hundred changed costs a hundred frontier writes,
/// not 50,000. A full pass hands on every entry, and writes the digest for the next refresh.
struct SitemapEntryDigest: Sendable {
    /// The sorted digests.
    private(set) var digests: [UInt64]

    /// The host file that keeps the digest of the sitemap at `url`.
    static func fileName(for url: String) -> String { "sitemap-entries " + url }

    /// The host file's `detail` for a digest of `count` entries written under the scope `fingerprint`.
    static func detail(fingerprint: String, count: Int) -> String { "scope \(fingerprint); \(count) entries" }

    /// Whether a host file's `detail` says its digest was written under the scope `fingerprint`.
    static func isWritten(underScope fingerprint: String, detail: String?) -> Bool {
        detail?.hasPrefix("scope \(fingerprint);") == true
    }

    /// The fingerprint of what decides which of a sitemap's entries become frontier candidates: the seeds,
    /// the patterns, the URL length and depth limits. A refresh run with other patterns than the crawl
    /// before it reads its sitemaps whole again.
    static func fingerprint(seeds: [String], configuration: CrawlConfiguration) -> String {
        let parts =
            seeds.sorted() + ["--include"] + configuration.includePatterns + ["--exclude"]
            + configuration.excludePatterns
            + ["\(configuration.maxURLLength)", configuration.maxDepth.map(String.init) ?? "-"]
        return ContentHash.of(Array(parts.joined(separator: "\n").utf8))
    }

    /// The digest of `entries`.
    init(entries: [SitemapEntry]) {
        self.init(digests: entries.map(Self.digest))
    }

    /// The digest of entries whose ``digest(_:)``s are `digests`, in any order.
    init(digests: [UInt64]) {
        self.digests = digests.sorted()
    }

    /// The digest stored as `body` (little-endian 64-bit words); `nil` when it is not one.
    init?(body: [UInt8]) {
        guard body.count % 8 == 0 else { return nil }
        var digests: [UInt64] = []
        digests.reserveCapacity(body.count / 8)
        var index = 0
        while index < body.count {
            var word: UInt64 = 0
            for shift in 0..<8 { word |= UInt64(body[index + shift]) << (8 * shift) }
            digests.append(word)
            index += 8
        }
        guard zip(digests, digests.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
        self.digests = digests
    }

    /// The digest as stored.
    var body: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digests.count * 8)
        for word in digests {
            for shift in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: word >> (8 * shift))) }
        }
        return bytes
    }

    /// Whether `entry` was listed, with the same URL and date.
    func contains(_ entry: SitemapEntry) -> Bool {
        contains(digest: Self.digest(entry))
    }

    /// Whether an entry whose ``digest(_:)`` is `wanted` was listed.
    func contains(digest wanted: UInt64) -> Bool {
        var low = 0
        var high = digests.count
        while low < high {
            let middle = (low + high) / 2
            if digests[middle] < wanted { low = middle + 1 } else { high = middle }
        }
        return low < digests.count && digests[low] == wanted
    }

    /// The entry's ``SitemapFingerprint``: the same in every process.
    static func digest(_ entry: SitemapEntry) -> UInt64 {
        SitemapFingerprint.of(entry)
    }
}
