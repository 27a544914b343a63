import Foundation
import URLCanonical

/// Builds a ``Sitemap`` within its limits: checks each URL the format readers find, counts entries and
/// issues, and says when the reader must stop.
struct SitemapCollector {
    let limits: SitemapLimits
    private(set) var sitemap = Sitemap()
    /// Whether ``SitemapLimits/maxURLs`` entries were kept and another one came: the reader stops.
    private(set) var isFull = false
    /// Issues beyond ``SitemapLimits/maxIssues``, only counted.
    private var droppedIssues = 0

    /// Says which entries an earlier read of the same sitemap kept, by ``SitemapFingerprint``: their URLs
    /// were checked then, and they are only counted and fingerprinted now.
    private let isKnown: ((UInt64) -> Bool)?

    init(limits: SitemapLimits, isKnown: ((UInt64) -> Bool)? = nil) {
        self.limits = limits
        self.isKnown = isKnown
    }

    /// Records the format once it is known.
    mutating func setFormat(_ format: SitemapFormat) {
        sitemap.format = format
    }

    /// Records an issue, or only counts it once ``SitemapLimits/maxIssues`` are listed.
    mutating func note(_ kind: SitemapIssue.Kind, _ message: String, line: Int? = nil) {
        if sitemap.issues.count < limits.maxIssues {
            sitemap.issues.append(SitemapIssue(kind, message, line: line))
        } else {
            droppedIssues += 1
        }
    }

    /// Records an issue found outside the collector (a compression fault, …).
    mutating func note(_ issue: SitemapIssue) {
        note(issue.kind, issue.message, line: issue.line)
    }

    /// Marks the sitemap cut short by a limit.
    mutating func markTruncated() {
        sitemap.isTruncated = true
    }

    /// Keeps `rawURL` (trimmed) as a page, or as a child sitemap when `isChild`, if it is an absolute
    /// http(s) URL within the length limit; otherwise records why not. `lastModified` is trimmed, and
    /// dropped when empty. A page entry the reader was told is known is only counted and fingerprinted.
    mutating func add(url rawURL: String, lastModified: String?, line: Int?, isChild: Bool = false) {
        add(url: rawURL, lastModified: lastModified, line: line, isChild: isChild, askingKnown: true)
    }

    /// ``add(url:lastModified:line:isChild:)``, asking whether a page entry is known only when
    /// `askingKnown` (the byte path asked already).
    private mutating func add(url rawURL: String, lastModified: String?, line: Int?, isChild: Bool, askingKnown: Bool) {
        guard !isFull else { return }
        let url = rawURL.trimmingSpaces()
        guard !url.isEmpty else {
            note(.missingURL, "an entry without a URL", line: line)
            return
        }
        guard url.utf8.count <= limits.maxURLLength else {
            note(
                .urlTooLong, "a URL of \(url.utf8.count) bytes (limit \(limits.maxURLLength)): \(Self.excerpt(url))",
                line: line)
            return
        }
        let date = lastModified?.trimmingSpaces()
        let entry = SitemapEntry(url: url, lastModified: date?.isEmpty == false ? date : nil)
        if isChild {
            keep(child: entry, line: line)
        } else {
            keep(page: entry, fingerprint: SitemapFingerprint.of(entry), line: line, askingKnown: askingKnown)
        }
    }

    /// ``add(url:lastModified:line:isChild:)`` for a page entry whose URL and date are bytes the XML reader
    /// gathered: a known entry (nearly every entry of a sitemap read again) is fingerprinted off the bytes
    /// and counted, and no string is made of it.
    ///
    /// Only text no longer than ``SitemapLimits/maxURLLength`` bytes takes the byte path: longer text may
    /// have been cut by the reader's cap in the middle of a UTF-8 sequence, which the string a fingerprint
    /// was stored from had replaced.
    mutating func add(pageURL: [UInt8], lastModified: [UInt8]?, line: Int?) {
        guard !isFull else { return }
        var fingerprint: UInt64?
        if pageURL.count <= limits.maxURLLength, (lastModified?.count ?? 0) <= limits.maxURLLength {
            fingerprint = pageURL.withUnsafeBufferPointer { url in
                (lastModified ?? []).withUnsafeBufferPointer { date in
                    let url = url.trimmingSpaces()
                    guard !url.isEmpty else { return nil }
                    return SitemapFingerprint.of(url: url, lastModified: date.trimmingSpaces())
                }
            }
        }
        guard let fingerprint, isKnown?(fingerprint) == true else {
            // Not known, or not a URL to keep: the general path checks it and says why not (asking whether
            // it is known only if that was not asked here).
            add(
                url: String(decoding: pageURL, as: UTF8.self),
                lastModified: lastModified.map { String(decoding: $0, as: UTF8.self) }, line: line, isChild: false,
                askingKnown: fingerprint == nil)
            return
        }
        keepKnownPage(fingerprint: fingerprint, line: line)
    }

    private mutating func keep(page entry: SitemapEntry, fingerprint: UInt64, line: Int?, askingKnown: Bool) {
        if askingKnown, isKnown?(fingerprint) == true {
            keepKnownPage(fingerprint: fingerprint, line: line)
            return
        }
        if let problem = Self.problem(with: entry.url) {
            note(.invalidURL, "\(problem): \(Self.excerpt(entry.url))", line: line)
            return
        }
        guard hasRoom(line: line) else { return }
        sitemap.pages.append(entry)
        sitemap.pageFingerprints.append(fingerprint)
    }

    private mutating func keepKnownPage(fingerprint: UInt64, line: Int?) {
        guard hasRoom(line: line) else { return }
        sitemap.knownPages += 1
        sitemap.pageFingerprints.append(fingerprint)
    }

    private mutating func keep(child entry: SitemapEntry, line: Int?) {
        if let problem = Self.problem(with: entry.url) {
            note(.invalidURL, "\(problem): \(Self.excerpt(entry.url))", line: line)
            return
        }
        guard hasRoom(line: line) else { return }
        sitemap.childSitemaps.append(entry)
    }

    /// Whether another URL fits under ``SitemapLimits/maxURLs``; if not, the sitemap is marked full and cut.
    private mutating func hasRoom(line: Int?) -> Bool {
        guard sitemap.pageCount + sitemap.childSitemaps.count >= limits.maxURLs else { return true }
        isFull = true
        markTruncated()
        note(.tooManyURLs, "more than \(limits.maxURLs) URLs: the rest of the file is not read", line: line)
        return false
    }

    /// The sitemap, with a last issue counting those left out.
    func finished() -> Sitemap {
        var result = sitemap
        if droppedIssues > 0 {
            result.issues.append(SitemapIssue(.tooManyIssues, "\(droppedIssues) more issues not listed"))
        }
        return result
    }

    /// Why `url` is not an absolute http or https URL with a host; `nil` when it is.
    ///
    /// The URL is kept as written (the WHATWG parser only checks it): canonicalization is the crawler's job. Control
    /// characters (a stray line break or tab inside) make it garbage rather than a URL.
    static func problem(with url: String) -> String? {
        // C0 controls and DEL are single UTF-8 bytes that no multi-byte sequence contains.
        if url.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "a URL with control characters or line breaks inside"
        }
        guard startsIgnoringCase(url, with: "http://") || startsIgnoringCase(url, with: "https://") else {
            return "not an absolute http or https URL"
        }
        guard WebURL.isHTTP(url) else { return "not a valid URL" }
        return nil
    }

    /// Whether `text` starts with the lower-case ASCII `prefix`, letters compared without case.
    private static func startsIgnoringCase(_ text: String, with prefix: String) -> Bool {
        text.utf8.count >= prefix.utf8.count
            && zip(text.utf8, prefix.utf8).allSatisfy { $0 == $1 || ($1 >= 0x61 && $0 | 0x20 == $1) }
    }

    /// A value shortened for a message.
    static func excerpt(_ value: String, limit: Int = 120) -> String {
        value.count <= limit ? value : String(value.prefix(limit)) + "…"
    }
}
