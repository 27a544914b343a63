internal import PostgresNIO

extension PostgresPublishTransaction {
    /// Inserts the items of clusters (by key), with one statement over arrays.
    func insertItems(
        _ items: [(clusterKey: String, item: PublicItemWrite)], clusterIDs: [String: Int64], publishedAt: Double
    ) async throws {
        guard !items.isEmpty else { return }
        var ids: [Int64] = [], clusters: [Int64] = [], identifiers: [String] = [], titles: [String] = []
        var engagements: [Int] = [], boosts: [Double] = [], sources: [String] = [], lastSeen: [Double] = []
        var json: [String] = [], folds: [String] = []
        var urls = PostgresColumn<String>(), bundles = PostgresColumn<String>()
        var descriptions = PostgresColumn<String>(), keywords = PostgresColumn<String>()
        var domains = PostgresColumn<String>(), ratings = PostgresColumn<Double>()
        var ratingCounts = PostgresColumn<Int>(), expiries = PostgresColumn<Double>()
        for (key, item) in items {
            guard let cluster = clusterIDs[key] else {
                throw StoreError(path: "public_item", message: "no cluster row for the item of cluster \(key)")
            }
            ids.append(item.id)
            clusters.append(cluster)
            identifiers.append(item.uniqueIdentifier)
            titles.append(item.title)
            engagements.append(item.engagement)
            boosts.append(item.boost)
            sources.append(item.sources)
            lastSeen.append(item.lastSeen)
            json.append(item.itemJSON)
            folds.append(item.titleFold)
            urls.append(item.webpageURL)
            bundles.append(item.bundle)
            descriptions.append(item.description)
            keywords.append(item.keywords)
            domains.append(item.domainIdentifier)
            ratings.append(item.rating)
            ratingCounts.append(item.ratingCount)
            expiries.append(item.expiresAt)
        }
        try await connection.rows(
            """
            INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, bundle, title, description,
                keywords, domain_identifier, rating, rating_count, engagement, boost, sources, expires_at, last_seen,
                published_at, item_json, title_fold, generation)
            SELECT t.id, t.cluster_id, t.unique_identifier, CASE WHEN t.url_p THEN t.url END,
                   CASE WHEN t.bundle_p THEN t.bundle END, t.title, CASE WHEN t.description_p THEN t.description END,
                   CASE WHEN t.keywords_p THEN t.keywords END, CASE WHEN t.domain_p THEN t.domain END,
                   CASE WHEN t.rating_p THEN t.rating END, CASE WHEN t.rating_count_p THEN t.rating_count END,
                   t.engagement, t.boost, t.sources, CASE WHEN t.expires_p THEN t.expires END, t.last_seen,
                   \(publishedAt), t.item_json, t.title_fold,
                   (SELECT value::int8 FROM setting WHERE name = \(IndexGeneration.currentSetting))
            FROM unnest(
                \(ids)::int8[], \(clusters)::int8[], \(identifiers)::text[], \(urls.values)::text[],
                \(urls.present)::bool[], \(bundles.values)::text[], \(bundles.present)::bool[], \(titles)::text[],
                \(descriptions.values)::text[], \(descriptions.present)::bool[], \(keywords.values)::text[],
                \(keywords.present)::bool[], \(domains.values)::text[], \(domains.present)::bool[],
                \(ratings.values)::float8[], \(ratings.present)::bool[], \(ratingCounts.values)::int8[],
                \(ratingCounts.present)::bool[], \(engagements)::int8[], \(boosts)::float8[], \(sources)::text[],
                \(expiries.values)::float8[], \(expiries.present)::bool[], \(lastSeen)::float8[], \(json)::text[],
                \(folds)::text[]
            ) AS t(id, cluster_id, unique_identifier, url, url_p, bundle, bundle_p, title, description,
                   description_p, keywords, keywords_p, domain, domain_p, rating, rating_p, rating_count,
                   rating_count_p, engagement, boost, sources, expires, expires_p, last_seen, item_json, title_fold)
            """, logger: logger)
    }
}

/// The cluster columns of a batch, as arrays.
struct ClusterColumns {
    var ids: [Int64] = []
    var keys: [String] = []
    /// The fingerprints byte-swapped, so that `int8send` (big-endian) writes their stored little-endian bytes.
    var fingerprints: [Int64] = []
    var published: [Bool] = []
    var reasons: [String] = []
    var matchedBy: [String] = []
    var members: [String] = []
    var validUntil = PostgresColumn<Double>()

    init(_ clusters: [ClusterWrite]) {
        for cluster in clusters {
            ids.append(cluster.storedID ?? 0)
            keys.append(cluster.key)
            fingerprints.append(Int64(bitPattern: cluster.fingerprint.byteSwapped))
            published.append(cluster.item != nil)
            reasons.append(cluster.reason)
            matchedBy.append(cluster.matchedBy)
            members.append(cluster.members)
            validUntil.append(cluster.validUntil)
        }
    }
}
