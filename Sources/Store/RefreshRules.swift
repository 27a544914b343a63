import Foundation

/// What makes a pass a refresh pass (SPEC §3 "Freshness"), in SQL both engines run (each with its own
/// placeholders): a full pass queues again every URL it reaches; a refresh pass starts with the sitemaps
/// and the pages due, and a URL already in the frontier joins it later only when due by the pass's start,
/// when it is a sitemap, or when a sitemap lists it with a `lastmod` newer than its last visit. New URLs
/// join either pass.
///
/// A page is due when its `next_visit_at` has come (or it has none: never visited since it was queued),
/// or when its stored sitemap `lastmod` is newer than its last visit. Rows with an empty host (pending
/// activity URLs that are not crawlable URLs) never are.
package enum RefreshRules {
    /// Queues the pass's sitemaps again; one that was gone (404, 410) at its last fetch only when its next
    /// visit has come by `dueBefore` (it is asked again less and less often, as an unchanged page is), so a
    /// site that adds a sitemap later is read in time without asking every refresh.
    package static func queueSitemaps(run: String, dueBefore: String) -> String {
        """
        UPDATE crawl_url SET run_id = \(run), state = 'queued', attempts = 0, not_before = 0,
            lease_owner = NULL, lease_until = 0
        WHERE kind = 'sitemap' AND host <> '' AND run_id < \(run)
          AND (outcome IS NULL OR outcome <> 'gone' OR next_visit_at IS NULL OR next_visit_at <= \(dueBefore))
        """
    }

    /// Queues the pages due by `dueBefore` in pass `run`.
    package static func queueDuePages(run: String, dueBefore: String) -> String {
        """
        UPDATE crawl_url SET run_id = \(run), state = 'queued', attempts = 0, not_before = 0,
            lease_owner = NULL, lease_until = 0
        WHERE id IN (SELECT id FROM crawl_url WHERE next_visit_at IS NULL OR next_visit_at <= \(dueBefore)
                     UNION SELECT id FROM crawl_url WHERE \(lastmodNewerThanVisit))
          AND kind = 'page' AND host <> '' AND run_id < \(run)
        """
    }

    /// A sitemap gave the row a `lastmod` newer than its last visit: the condition of the partial index
    /// `crawl_url_lastmod_newer`, written the same way so both engines' planners read the few rows it holds
    /// instead of the whole frontier.
    package static let lastmodNewerThanVisit = "sitemap_lastmod > COALESCE(visited_at, fetched_at, 0)"

    /// The indexes that let a refresh pass find what is due without reading the whole frontier (SQLite
    /// `v15-refresh-indexes`, PostgreSQL `v7-refresh-indexes`): the sitemaps, and the rows a sitemap made
    /// due; the rows due by time are found through `crawl_url_next_visit`.
    package static let indexes = [
        "CREATE INDEX crawl_url_sitemap ON crawl_url (run_id) WHERE kind = 'sitemap'",
        "CREATE INDEX crawl_url_lastmod_newer ON crawl_url (id) WHERE \(lastmodNewerThanVisit)",
    ]

    /// The condition under which a candidate queues again the frontier row `row` of an earlier pass: always in
    /// a full pass (`dueBefore` NULL); in a refresh pass when the row is due by `dueBefore`, is a sitemap, the
    /// candidate's sitemap `lastmod` is newer than the row's last visit, or the candidate is a pending activity
    /// page (`source`), which a new donation asks to verify now.
    package static func requeuesEarlier(row: String, dueBefore: String, lastModified: String, source: String) -> String
    {
        """
        (\(dueBefore) IS NULL OR \(row).kind = 'sitemap' OR \(row).next_visit_at IS NULL
         OR \(row).next_visit_at <= \(dueBefore) OR \(lastModified) > COALESCE(\(row).visited_at, \(row).fetched_at, 0)
         OR \(source) = '\(DiscoverySource.activity.rawValue)')
        """
    }

    /// Whether a candidate (not an activity page's) leaves alone the row of an earlier pass it meets, as
    /// ``requeuesEarlier(row:dueBefore:lastModified:source:)`` decides in SQL: for a store that reads first
    /// what its statements may change.
    package static func leavesEarlier(
        kind: FrontierKind, nextVisitAt: Double?, visitedAt: Double?, dueBefore: Double?, lastModified: Double?
    ) -> Bool {
        guard let dueBefore, kind == .page, let nextVisitAt, nextVisitAt > dueBefore else { return false }
        guard let lastModified else { return true }
        return lastModified <= (visitedAt ?? 0)
    }

    /// A refresh pass's seeds: every earlier pass's (`earlier`, each as stored), then those `given`, each once
    /// in the order first seen.
    package static func seeds(earlier: [String], given: [String]) -> [String] {
        var seen: Set<String> = []
        var seeds: [String] = []
        for seed in earlier.flatMap(decodeSeeds) + given where seen.insert(seed).inserted {
            seeds.append(seed)
        }
        return seeds
    }

    /// Seeds as `crawl_run.seeds` stores them (a JSON array of strings).
    package static func encodeSeeds(_ seeds: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(seeds)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The seeds of a stored `crawl_run.seeds`; none when it does not read.
    package static func decodeSeeds(_ stored: String?) -> [String] {
        stored.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
    }
}
