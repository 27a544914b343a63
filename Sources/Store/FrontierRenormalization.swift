internal import Scope

/// How the migration that renormalizes the frontier (SQLite `v14-whatwg-crawl-url`, PostgreSQL
/// `v6-whatwg-crawl-url`) rewrites one `crawl_url` row: its `url` in the form ``CrawlURL`` gives it (WHATWG
/// parsing), `host` as that URL's host key, and `url_key` as its frontier key. Where the URL changes, the
/// rows that name it follow: `page.url` (which the frontier joins on) and `redirect.from_url`/`to_url`.
///
/// Both engines walk the rows oldest first, a thousand at a time, and settle collisions the same way, so the
/// migration never fails on a unique index:
///
/// - a new key another row holds stays with the older of the two; the younger row keeps a NULL key (as the
///   rows `v3-frontier-key` could not key), and a later candidate with that key updates the older row;
/// - a new URL another frontier row, a page or a redirect already has is not taken: the row keeps its old
///   spelling, which names the same resource and is fetched as such.
struct FrontierRenormalization: Sendable, Hashable {
    /// A `crawl_url` row as stored.
    struct Row: Sendable, Hashable {
        var id: Int64
        var url: String
        var host: String
        var key: String?
    }

    /// Rows read per batch: memory stays flat on a big frontier.
    static let batchSize = 1000

    /// The row as it should be now, or `nil` when nothing changes (or the URL no longer parses, when the row is
    /// kept as it is). A key that is not the URL's own (an importer's, for a pending activity URL) is kept.
    static func renormalized(_ row: Row) -> Row? {
        guard let url = try? CrawlURL(row.url) else { return nil }
        let ownsKey = row.key == nil || row.key == FrontierCandidate.key(for: row.url)
        let new = Row(id: row.id, url: url.string, host: url.hostKey, key: ownsKey ? url.frontierKey : row.key)
        return new == row ? nil : new
    }

    /// What a row becomes once collisions are settled.
    ///
    /// - Parameters:
    ///   - keyHolder: the id of another row that holds `new.key`, if any.
    ///   - urlTaken: whether another frontier row, a page or a redirect already has `new.url`.
    /// - Returns: the row to write, and the id of a younger row whose key this (older) row takes, which must
    ///   be cleared first.
    static func settle(
        _ old: Row, _ new: Row, keyHolder: Int64?, urlTaken: Bool
    ) -> (row: Row, clearKeyOf: Int64?) {
        var row = new
        var clear: Int64?
        if let keyHolder {
            if keyHolder < old.id { row.key = nil } else { clear = keyHolder }
        }
        if urlTaken { row.url = old.url }
        return (row, clear)
    }
}
