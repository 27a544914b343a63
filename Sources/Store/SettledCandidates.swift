/// Which of a commit's candidates meet a frontier row that the upsert would leave as it is, decided in Swift
/// from the rows read first, by the upsert's own rule: a row of an earlier pass stays when
/// ``RefreshRules/leavesEarlier(kind:nextVisitAt:visitedAt:dueBefore:lastModified:)`` says so; a row of this pass
/// (or a later one) stays unless it is still queued deeper than every candidate for it. Activity candidates are
/// never settled this way (their pending rows have their own bookkeeping).
///
/// Both stores use it: PostgreSQL so that a commit locks only the rows it may change, SQLite in a refresh pass,
/// where most of a changed page's links lead to pages that are not due.
struct SettledCandidates {
    /// Per key, the shallowest depth a candidate reaches it at.
    private var shallowest: [String: Int] = [:]
    /// Per key, the newest sitemap date a candidate gives it.
    private var newest: [String: Double] = [:]
    /// The keys found settled so far.
    private(set) var keys: Set<String> = []
    /// The pass the commit writes for, and its `due_before` (`nil` in a full pass).
    private let run: Int64
    private let dueBefore: Double?

    init(_ candidates: [FrontierCandidate], run: Int64, dueBefore: Double?) {
        self.run = run
        self.dueBefore = dueBefore
        for candidate in candidates where candidate.source != .activity {
            shallowest[candidate.key] = min(shallowest[candidate.key] ?? .max, candidate.depth)
            if let date = candidate.sitemapLastModified {
                newest[candidate.key] = max(newest[candidate.key] ?? date, date)
            }
        }
    }

    /// The keys whose rows are to be read.
    var keysToRead: [String] { Array(shallowest.keys) }

    /// Notes the row stored under `key` (its pass, state, depth, kind, next visit and last visit — the visit
    /// time, else the fetch time) and keeps `key` settled when the upsert would leave that row alone.
    mutating func note(
        key: String, rowRun: Int64, state: String, depth: Int, kind: FrontierKind, nextVisitAt: Double?,
        visitedAt: Double?
    ) {
        guard let wanted = shallowest[key] else { return }
        if rowRun < run {
            if RefreshRules.leavesEarlier(
                kind: kind, nextVisitAt: nextVisitAt, visitedAt: visitedAt, dueBefore: dueBefore,
                lastModified: newest[key])
            {
                keys.insert(key)
            }
        } else if rowRun > run || state != FrontierState.queued.rawValue || depth <= wanted {
            keys.insert(key)
        }
    }
}
