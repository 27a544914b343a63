import Foundation
import GRDB
import Items
import Store
import TestSupport

/// What the index tests read of a store file without the store's API.
extension TemporaryStore {
    /// Reads the file directly, as an outside tool would, without the store's API.
    func readOnly<T>(_ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        // The store's last connection may still be closing (its checkpoint holds the lock a moment): wait.
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration).read(body)
    }

    /// The SPEC §6 JSON of the public items matching `condition` (SQL on `public_item`), in `unique_identifier`
    /// order: each put back together from its stored form and columns, as the store's readers do.
    func publishedJSON(where condition: String = "1", arguments: StatementArguments = []) throws -> [String] {
        try readOnly { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT item_json, title, description, keywords FROM public_item WHERE \(condition)
                    ORDER BY unique_identifier
                    """, arguments: arguments
            ).map { row in
                StoredItem.publishedJSON(
                    stored: row["item_json"], title: row["title"], description: row["description"],
                    keywords: row["keywords"])
            }
        }
    }
}
