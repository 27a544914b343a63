import Foundation
import Store

/// A pass's totals from its workers' rows in the store: the counters summed, and the time the pass
/// was crawled (the union of the workers' spans, so workers running side by side count once).
struct CrawlTotals {
    var counters = CrawlCounters()
    var seconds = 0.0
    var workers = 0

    /// Totals of `records`, plus the counters a pass kept with itself before workers had rows.
    init(workers records: [CrawlWorkerRecord], legacyCountersJSON: String) {
        let decoder = JSONDecoder()
        if let legacy = try? decoder.decode(CrawlCounters.self, from: Data(legacyCountersJSON.utf8)) {
            counters.add(legacy)
            seconds = legacy.earlierSeconds
        }
        for record in records {
            if let own = try? decoder.decode(CrawlCounters.self, from: Data(record.countersJSON.utf8)) {
                counters.add(own)
            }
        }
        workers = records.count
        var spanEnd = -Double.infinity
        for record in records.sorted(by: { $0.startedAt < $1.startedAt }) {
            let start = max(record.startedAt, spanEnd)
            if record.seenAt > start { seconds += record.seenAt - start }
            spanEnd = max(spanEnd, record.seenAt)
        }
        counters.earlierSeconds = 0
    }
}
