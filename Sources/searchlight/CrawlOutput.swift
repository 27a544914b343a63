import Crawler
import Foundation
import Synchronization

/// The crawl's live progress line on standard error (a terminal only): pages done,
/// requests in flight, rate, and errors by kind.
final class CrawlStatusLine: Sendable {
    private let enabled: Bool
    private let drawn = Mutex(false)

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Redraws the line with `progress`.
    func draw(_ progress: CrawlProgress) {
        guard enabled else { return }
        var text = String(
            format: "\r%d pages done, %d queued, %d in flight, %.1f pages/s", progress.pagesDone, progress.queued,
            progress.inFlight, progress.rate)
        let errors = progress.errors.values.reduce(0, +)
        if errors > 0 {
            let kinds = progress.errors.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key) \($0.value)" }
            text += ", \(errors) errors (\(kinds.joined(separator: ", ")))"
        }
        let skipped = progress.skipped.values.reduce(0, +)
        if skipped > 0 { text += ", \(skipped) skipped" }
        drawn.withLock { $0 = true }
        FileHandle.standardError.write(Data((text + "\u{1B}[K").utf8))
    }

    /// Clears the line so the summary starts clean.
    func clear() {
        guard enabled, drawn.withLock({ $0 }) else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

/// The end-of-crawl summary, as text or JSON.
enum CrawlSummaryText {
    /// The summary as one JSON object (the ``CrawlSummary`` fields plus `store`), keys sorted.
    static func json(_ summary: CrawlSummary, storePath: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(SummaryWithStore(summary: summary, store: storePath))
        return String(decoding: data, as: UTF8.self)
    }

    /// The summary for people.
    static func text(_ summary: CrawlSummary, storePath: String) -> String {
        let counters = summary.counters
        var lines: [String] = []
        let state = summary.finished ? "finished" : "stopped (resumable, \(summary.queued) URLs queued)"
        lines.append(
            "Crawl pass \(summary.run) \(state) in \(String(format: "%.1f", summary.durationSeconds)) s"
                + (summary.resumed ? " (resumed)" : ""))
        if let refresh = summary.refresh {
            lines.append(
                "  refresh    \(refresh.due) due, \(refresh.fetched) fetched, \(refresh.unchanged) unchanged, "
                    + "\(refresh.changed) changed, \(refresh.gone) gone")
        }
        lines.append(
            "  pages      \(counters.pagesFetched) fetched, \(counters.pagesIndexed) indexed, "
                + "\(counters.pagesUnchanged) unchanged, \(counters.pagesChanged) changed, \(counters.pagesGone) gone")
        lines.append("  redirects  \(counters.redirects)")
        lines.append(
            "  sitemaps   \(counters.sitemapsRead) read, \(counters.sitemapURLs) URLs listed"
                + (counters.sitemapsUnchanged > 0 ? ", \(counters.sitemapsUnchanged) unchanged" : ""))
        lines.append("  skipped    \(list(counters.skipped))")
        lines.append("  errors     \(list(counters.errors))")
        lines.append("  retries    \(counters.retries)")
        if !counters.rendering.isEmpty {
            lines.append("  rendering  \(list(counters.rendering))")
            lines.append("  subrequests \(list(counters.subresources))")
        }
        lines.append(
            "  bytes      \(ByteCountFormatter.string(fromByteCount: Int64(counters.bytes), countStyle: .file))")
        if summary.workers > 1 {
            lines.append(
                "  workers    \(summary.workers) (this one fetched \(summary.workerCounters.pagesFetched) pages)")
        }
        if summary.finished, summary.queued > 0 {
            lines.append("  queued     \(summary.queued) (not fetched: --max-pages reached)")
        }
        lines.append("  store      \(storePath)")
        return lines.joined(separator: "\n")
    }

    private static func list(_ counts: [String: Int]) -> String {
        guard !counts.isEmpty else { return "none" }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ")
    }
}

/// ``CrawlSummary``'s members and `store` in one object, encoded once: the summary encodes itself into the
/// encoder's keyed container, and `store` is added to that same container.
private struct SummaryWithStore: Encodable {
    let summary: CrawlSummary
    let store: String

    private enum Key: String, CodingKey {
        case store
    }

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(store, forKey: .store)
    }
}
