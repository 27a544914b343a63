import GRDB

/// The one way a published item becomes a SQLite `public_item` row: the SQLite publisher and a PostgreSQL
/// store's replica (``ReplicaWriter``) both write through it, so the two files hold the same columns alike.
extension PublicItemWrite {
    /// The insert, with the arguments of ``insertArguments(clusterID:publishedAt:)`` in order.
    static let insertSQL = """
        INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, bundle, title, description,
            keywords, domain_identifier, rating, rating_count, engagement, boost, sources, expires_at,
            last_seen, published_at, item_json, title_fold)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The row's values for ``insertSQL``, in the cluster `clusterID`, published at `publishedAt`.
    func insertArguments(clusterID: Int64, publishedAt: Double) -> StatementArguments {
        [
            id, clusterID, uniqueIdentifier, webpageURL, bundle, title, description, keywords, domainIdentifier,
            rating, ratingCount, engagement, boost, sources, expiresAt, lastSeen, publishedAt, itemJSON, titleFold,
        ]
    }
}
