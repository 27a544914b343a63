import Store

/// A public item for tests, published into a store of either engine through the store's own publish
/// transaction (``PublishStore``, ``PublishTransaction``), as the publisher writes items: its cluster, its
/// columns, its full-text and gram rows where the engine keeps them, and on PostgreSQL a generation. Only the
/// plan is the test's: the item's `id` (its place in rank order) and every column are given, not computed.
package struct TestItem: Sendable {
    package var id: Int64
    package var title: String
    package var description: String? = nil
    package var keywords: [String] = []
    package var url: String? = nil
    package var bundle: String? = nil
    package var domain: String? = nil
    package var rating: Double? = nil
    package var ratingCount: Int? = nil
    package var engagement = 0
    package var boost = 0.0
    package var sources = "web"
    package var expiresAt: Double? = nil
    /// When the item was last seen; also when it was published.
    package var lastSeen = 1_767_225_600.0
    /// The item's stored JSON, when the test gives its own (else ``json``'s default).
    package var storedJSON: String? = nil
    /// The item's identity, when the test gives its own (else ``uniqueIdentifier``'s default).
    package var identifier: String? = nil

    package init(
        id: Int64, title: String, description: String? = nil, keywords: [String] = [], url: String? = nil,
        bundle: String? = nil, domain: String? = nil, rating: Double? = nil, ratingCount: Int? = nil,
        engagement: Int = 0, boost: Double = 0, sources: String = "web", expiresAt: Double? = nil,
        lastSeen: Double = 1_767_225_600, storedJSON: String? = nil, identifier: String? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.keywords = keywords
        self.url = url
        self.bundle = bundle
        self.domain = domain
        self.rating = rating
        self.ratingCount = ratingCount
        self.engagement = engagement
        self.boost = boost
        self.sources = sources
        self.expiresAt = expiresAt
        self.lastSeen = lastSeen
        self.storedJSON = storedJSON
        self.identifier = identifier
    }

    /// The item's identity: ``identifier``, else its URL, else `item-ID`.
    package var uniqueIdentifier: String { identifier ?? url ?? "item-\(id)" }

    /// The item's stored JSON (the columns hold its title, description and keywords): ``storedJSON``, else
    /// its identifier and title.
    package var json: String {
        storedJSON
            ?? "{\"uniqueIdentifier\":\(Self.quoted(uniqueIdentifier)),\"attributeSet\":{\"title\":\(Self.quoted(title))}}"
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20:
                quoted +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// Publishes `items` into `store` in one transaction, each in a cluster of its own (`cluster-ID`), beside
    /// what the store's index holds already. Items with the same `lastSeen` in a row are written together, at most 1,000 at a time.
    package static func publish(_ items: [TestItem], into store: any PublishStore) async throws {
        _ = try await store.publish(
            recordingEngagementThreshold: nil, expiryDays: nil, into: EmptyPublishSnapshot(), plan: { _ in items },
            itemCount: \.count,
            write: { items, transaction in
                _ = try await transaction.begin(
                    removing: [], rewriting: [], changedClusters: items.count, publishing: items.count)
                var start = items.startIndex
                while start < items.endIndex {
                    let time = items[start].lastSeen
                    let same = items[start...].prefix { $0.lastSeen == time }.prefix(1000)
                    let end = same.endIndex
                    let writes = items[start..<end].map { $0.clusterWrite(fullText: transaction.writesFullText) }
                    try await transaction.write(writes, publishedAt: time)
                    start = end
                }
                return try await transaction.finish(queueing: [], at: 0)
            })
    }

    /// The item's cluster and row as the publisher writes them.
    package func clusterWrite(fullText: Bool) -> ClusterWrite {
        let keywordText = keywords.isEmpty ? nil : keywords.joined(separator: "\n")
        let item = PublicItemWrite(
            id: id, uniqueIdentifier: uniqueIdentifier, webpageURL: url, bundle: bundle, title: title,
            description: description, keywords: keywordText, domainIdentifier: domain, rating: rating,
            ratingCount: ratingCount, engagement: engagement, boost: boost, sources: sources, expiresAt: expiresAt,
            lastSeen: lastSeen, itemJSON: json, titleFold: SQLiteStore.foldedPrefix(title),
            gramRow: fullText ? GramText.row(title: title, description: description, keywords: keywordText) : nil)
        return ClusterWrite(
            storedID: nil, key: "cluster-\(id)", fingerprint: 0, reason: "published", matchedBy: "[]", members: "[]",
            validUntil: nil, item: item)
    }
}

/// The snapshot of a test's publish that plans nothing from the store: it keeps nothing.
package struct EmptyPublishSnapshot: PublishSnapshotSink {
    package init() {}
    package mutating func begin(settings: DonationSettings, lastPublishID: Int64) -> Int { 0 }
    package mutating func add(page row: PublishPageRow) {}
    package mutating func add(redirectFrom from: String, to: String) {}
    package mutating func add(unreachable row: PublishUnreachableRow) {}
    package mutating func add(association row: PublishAssociationRow) {}
    package mutating func add(activity row: PublishActivityRow) {}
    package mutating func add(appItem row: PublishAppItemRow) {}
    package mutating func add(storedCluster row: StoredClusterRow) {}
    package mutating func take(recordCounts counts: (withheld: [String: Int], belowThreshold: Int)) {}
}
