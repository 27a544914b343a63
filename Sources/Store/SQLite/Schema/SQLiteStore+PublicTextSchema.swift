import GRDB

extension SQLiteStore {
    /// Stores written before the publishing rules below were enforced are brought in line, and every
    /// cluster is rebuilt by the next publish:
    ///
    /// - a page's `title` is its item's title (`og:title`, else `<title>`, else `twitter:title`), not only
    ///   `<title>`: a page named by `og:title` alone was withheld as having no title. The item's title is
    ///   read from the stored item (`item_json`), for pages crawled before;
    /// - published web identifiers and URLs are canonical (no tracking parameter, no fragment), text holds
    ///   no control characters, and an activity page robots.txt disallows is withheld as
    ///   `robotsDisallowed`: every cluster's `valid_until` is set in the past, which makes the next
    ///   publish rewrite it (the same path as a member that expires), so the index is rebuilt under the
    ///   rules once, with no change to what a publish reads.
    static func registerPublicTextSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-public-text") { db in
            try db.execute(
                sql: """
                    UPDATE page SET title = json_extract(item_json, '$.attributeSet.title')
                    WHERE item_json IS NOT NULL AND json_valid(item_json)
                      AND coalesce(json_extract(item_json, '$.attributeSet.title'), '') != ''
                      AND title IS NOT json_extract(item_json, '$.attributeSet.title');
                    UPDATE cluster SET valid_until = 0;
                    """)
        }
    }
}
