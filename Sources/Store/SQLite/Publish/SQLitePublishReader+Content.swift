import Foundation
import GRDB

/// What the publisher reads while it builds items, a chunk of clusters at a time.
extension SQLitePublishReader {
    /// The stored item JSON of the pages `urls` (`nil` for a page that stored none).
    func pageItems(_ urls: [String]) throws -> [String: String?] {
        var result: [String: String?] = [:]
        result.reserveCapacity(urls.count)
        for chunk in Self.chunks(urls) {
            let rows = try Row.fetchCursor(
                db, sql: "SELECT url, item_json FROM page WHERE url IN (\(Self.marks(chunk.count)))",
                arguments: StatementArguments(chunk))
            while let row = try rows.next() { result[row["url"]] = row["item_json"] as String? }
        }
        return result
    }

    /// The content of the activities `ids`, by id.
    func activityContents(_ ids: [Int64]) throws -> [Int64: ActivityContentRow] {
        var result: [Int64: ActivityContentRow] = [:]
        result.reserveCapacity(ids.count)
        for chunk in Self.chunks(ids.sorted()) {
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, bundle, activity_type, persistent_identifier, related_id, domain_identifier, title,
                           description, keywords, thumbnail_url, rating, rating_count
                    FROM activity WHERE id IN (\(Self.marks(chunk.count)))
                    """,
                arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                result[row["id"]] = ActivityContentRow(
                    id: row["id"], bundle: row["bundle"], activityType: row["activity_type"],
                    persistentIdentifier: row["persistent_identifier"], relatedID: row["related_id"],
                    domainIdentifier: row["domain_identifier"], title: row["title"], description: row["description"],
                    keywords: row["keywords"], thumbnailURL: row["thumbnail_url"], rating: row["rating"],
                    ratingCount: row["rating_count"])
            }
        }
        return result
    }

    /// How many distinct donors (by their hashes) each set of activities has together, by the set's key.
    func distinctDonors(_ sets: [(key: Int, activities: [Int64])]) throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for (key, ids) in sets {
            var donors = Set<Data>()
            for chunk in Self.chunks(ids) {
                let rows = try Data.fetchCursor(
                    db,
                    sql: """
                        SELECT donation.donor FROM donation JOIN activity ON activity.identity = donation.identity
                        WHERE activity.id IN (\(Self.marks(chunk.count)))
                        """,
                    arguments: StatementArguments(chunk))
                while let donor = try rows.next() { donors.insert(donor) }
            }
            counts[key] = donors.count
        }
        return counts
    }

    /// Slices of at most 500 values: one `IN (…)` list each.
    private static func chunks<Value>(_ values: [Value]) -> [ArraySlice<Value>] {
        stride(from: 0, to: values.count, by: 500).map { values[$0..<min($0 + 500, values.count)] }
    }

    /// `count` parameter markers (`?,?,?`).
    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }
}
