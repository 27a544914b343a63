internal import PostgresNIO

extension PostgresSchema {
    /// `v8-index-generations`: PostgreSQL stops being a search engine and records what every publish changed,
    /// for the replicas that answer searches (``IndexReplica``; Docs/postgres.md, "Where searches are
    /// answered").
    ///
    /// - The full-text columns (`search_vector`, `search_grams`), their GIN indexes and the folding functions
    ///   the PostgreSQL dialect of the query language called go: searches read a SQLite replica's FTS5 tables.
    /// - `public_item.generation`: the publish that wrote the row (rows are only ever inserted and deleted,
    ///   never updated); `0` for rows written before generations existed.
    /// - `public_item_removal`: the ids a publish deleted, under its generation, written by a statement
    ///   trigger so that no delete of an item can go unrecorded (a cluster's cascade too).
    /// - Settings: ``IndexGeneration/currentSetting`` (the last generation a publish committed) and
    ///   ``IndexGeneration/historySetting`` (removals of generations above it are all kept; a replica older
    ///   than it is rebuilt).
    static let generations = PostgresMigration(identifier: "v8-index-generations") { connection, logger in
        for statement in generationStatements {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    static let generationStatements = [
        "DROP INDEX public_item_search",
        "DROP INDEX public_item_grams",
        "ALTER TABLE public_item DROP COLUMN search_vector, DROP COLUMN search_grams",
        "DROP FUNCTION searchlight_fold(text)",
        "DROP FUNCTION searchlight_casefold(text)",
        "DROP FUNCTION searchlight_lower(text)",
        "ALTER TABLE public_item ADD COLUMN generation BIGINT NOT NULL DEFAULT 0",
        "CREATE INDEX public_item_generation ON public_item (generation)",
        "CREATE TABLE public_item_removal (generation BIGINT NOT NULL, id BIGINT NOT NULL)",
        "CREATE INDEX public_item_removal_generation ON public_item_removal (generation)",
        """
        INSERT INTO setting (name, value) VALUES ('\(IndexGeneration.currentSetting)', '0'),
            ('\(IndexGeneration.historySetting)', '0')
        """,
        """
        CREATE FUNCTION searchlight_record_removals() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO public_item_removal (generation, id)
            SELECT (SELECT value::bigint FROM setting WHERE name = '\(IndexGeneration.currentSetting)'), gone.id
            FROM gone;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER public_item_removed AFTER DELETE ON public_item
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION searchlight_record_removals()
        """,
    ]
}

/// The generations of a PostgreSQL store's public index: each publish that changes it is one, numbered from
/// 1, and its number tags the rows it wrote and the ids it removed (``PostgresSchema/generations``).
package enum IndexGeneration {
    /// The setting holding the last committed generation.
    package static let currentSetting = "index_generation"
    /// The setting holding the generation whose removals and all before it may be pruned: a replica at a
    /// generation below it cannot be brought up to date by the history and is rebuilt.
    package static let historySetting = "index_history_from"
    /// The channel a publish notifies (with its generation) when it commits.
    package static let channel = "searchlight_index"
    /// How many generations of removals a publish keeps: a replica that many publishes behind is rebuilt.
    package static let keptGenerations: Int64 = 10_000
}
