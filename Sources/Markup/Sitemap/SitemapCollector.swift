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

    /// Says which entries an earlier read of the same sitemap kept: their URLs were checked then, and are
    /// not checked again.
    private let isKnown: ((SitemapEntry) -> Bool)?

    init(limits: SitemapLimits, isKnown: ((SitemapEntry) -> Bool)? = nil) {
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
    /// dropped when empty.
    mutating func add(url rawURL: String, lastModified: String?, line: Int?, isChild: Bool = false) {
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
        if isChild || isKnown?(entry) != true, let problem = Self.problem(with: url) {
            note(.invalidURL, "\(problem): \(Self.excerpt(url))", line: line)
            return
        }
        guard sitemap.pages.count + sitemap.childSitemaps.count < limits.maxURLs else {
            isFull = true
            markTruncated()
            note(.tooManyURLs, "more than \(limits.maxURLs) URLs: the rest of the file is not read", line: line)
            return
        }
        if isChild {
            sitemap.childSitemaps.append(entry)
        } else {
            sitemap.pages.append(entry)
        }
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
