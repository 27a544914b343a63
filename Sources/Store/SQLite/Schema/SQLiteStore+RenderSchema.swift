import GRDB

extension SQLiteStore {
    /// `page.is_rendered`: whether the stored page was read from its DOM rendered in a browser (`crawl
    /// --render`) rather than from the served HTML. Earlier rows were all read from the served HTML.
    static func registerRenderSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16-page-rendered") { db in
            try db.execute(sql: "ALTER TABLE page ADD COLUMN is_rendered INTEGER NOT NULL DEFAULT 0")
        }
    }
}
