import GRDB

extension Store {
    /// Re-numbers the public items of stores published before ``ItemRankOrder`` existed (their ids
    /// were plain 1, 2, 3…): each keeps its old id as its sequence, under its boost bucket, and the
    /// next sequence starts after the largest. Old ids are below 2⁴⁰ and the new ids of every bucket
    /// but the top one are above, so no two rows ever collide; FTS5 follows through the update trigger.
    /// Ids already in rank order (above 2⁴⁰) are left alone.
    static func registerRankOrderSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-rank-order") { db in
            let mask = ItemRankOrder.maxSequence
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO setting (name, value)
                        VALUES (?, (SELECT coalesce(max(id & \(mask)), 0) + 1 FROM public_item));
                    UPDATE public_item SET id = \(ItemRankOrder.idSQL(boost: "boost", sequence: "id"))
                        WHERE id <= \(mask);
                    """,
                arguments: [ItemRankOrder.sequenceSetting])
        }
    }
}
