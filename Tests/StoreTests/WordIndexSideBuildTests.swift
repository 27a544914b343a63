import Foundation
import GRDB
import Testing

@testable import Store

/// A publish that writes a whole new index builds its word index in a file beside the store
/// (``WordIndexSideBuild``) and copies it in: the store ends with the word index the ordinary path writes,
/// whatever order the items come in, and with no file left beside it.
@Suite("Word index built beside the store")
struct WordIndexSideBuildTests {
    static let words = [
        "lemon", "tart", "crème", "brûlée", "sourdough", "bread", "lemonade", "pastry", "café", "naïve", "zucchini",
        "apple", "applesauce", "strudel", "tartine", "lemongrass", "soup", "noodle", "ramen", "pho",
    ]

    /// `count` items spread over rank buckets, with ids as the publisher gives them, in cluster order.
    static func clusters(_ count: Int, seed: UInt64 = 7, rewriting stored: [Int64] = []) -> [ClusterWrite] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let engagement = [1, 2, 5, 40, 900, 20_000][index % 6] + index % 3
            let boost = log(1 + Double(engagement))
            func text(_ length: Int) -> String {
                (0..<length).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
            }
            let item = PublicItemWrite(
                id: ItemRankOrder.id(boost: boost, sequence: Int64(stored.count + index + 1)),
                uniqueIdentifier: "u\(index)",
                webpageURL: nil, bundle: "com.example", title: text(3),
                description: index % 5 == 0 ? nil : text(12), keywords: index % 4 == 0 ? nil : text(2),
                domainIdentifier: nil, rating: nil, ratingCount: nil, engagement: engagement, boost: boost,
                sources: "web", expiresAt: nil, lastSeen: 0, itemJSON: "{}", titleFold: "", gramRow: nil)
            return ClusterWrite(
                storedID: index < stored.count ? stored[index] : nil, key: "k\(index)", fingerprint: UInt64(index),
                reason: "published", matchedBy: "[]",
                members: "[]", validUntil: nil, item: item)
        }
    }

    /// How the writer announces its floors.
    enum Floors: String, CaseIterable, Sendable {
        /// In rank order, each item's floor as the publisher computes it: rows go in as they come.
        case rankOrder
        /// In cluster order with no floor: every row waits for the end.
        case none
        /// In cluster order, every row given at once: rows come below ones already given (late).
        case wrong
    }

    static func publish(
        _ clusters: [ClusterWrite], into store: SQLiteStore, besides: Bool, floors: Floors = .rankOrder
    ) throws {
        try store.publishTransaction(expectingItems: clusters.count, threshold: besides ? 10 : .max) { db, side in
            #expect((side != nil) == besides)
            let writer = SQLitePublishWriter(db, wordIndexFile: side)
            try writer.removeClusters([], rewriting: clusters.compactMap(\.storedID))
            try writer.deferItemIndexes(writing: clusters.count, threshold: 10)
            #expect(writer.isBuildingWordIndexBeside == besides)
            let ordered = floors == .rankOrder ? clusters.sorted { $0.item!.id < $1.item!.id } : clusters
            for (position, cluster) in ordered.enumerated() {
                let next = position + 1 < ordered.count ? ordered[position + 1].item!.id : .max
                let floor: Int64 =
                    switch floors {
                    case .rankOrder: next
                    case .none: .min
                    case .wrong: .max
                    }
                try writer.write(cluster, publishedAt: 0, laterItemsFrom: floor)
            }
            try writer.finishIndexes()
        }
    }

    static let queries = [
        "lemon", "lem*", "lemo*", "lemon*", "lemona*", "tart*", "creme", "brulee", "cafe*", "title:soup",
        "description:(apple AND strudel)", "keywords:ramen", "\"lemon tart\"", "naive OR zucchini", "pho NOT soup",
    ]

    /// Every query's matches with their scores, and the index's totals.
    static func answers(_ store: SQLiteStore) throws -> [String] {
        try store.pool.read { db in
            var lines: [String] = []
            for query in queries {
                let rows = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT rowid, bm25(public_fts) AS score FROM public_fts WHERE public_fts MATCH ? ORDER BY rowid",
                    arguments: [query])
                lines.append(
                    "\(query): "
                        + rows.map { "\($0["rowid"] as Int64)/\($0["score"] as Double)" }.joined(separator: ","))
            }
            return lines
        }
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.contains(WordIndexSideBuild.marker)
        }
    }

    @Test("the same word index as the ordinary path, whatever the order of the items", arguments: Floors.allCases)
    func sameIndex(floors: Floors) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clusters = Self.clusters(600)
        let ordinary = try SQLiteStore(path: folder.appendingPathComponent("ordinary.sqlite").path)
        let besides = try SQLiteStore(path: folder.appendingPathComponent("besides.sqlite").path)
        try Self.publish(clusters, into: ordinary, besides: false)
        try Self.publish(clusters, into: besides, besides: true, floors: floors)

        #expect(try Self.answers(besides) == Self.answers(ordinary))
        // Every query finds something: the comparison is not of two empty indexes.
        #expect(try Self.answers(ordinary).allSatisfy { !$0.hasSuffix(": ") })
        try besides.pool.write { db in
            // FTS5 checks the index against the items (the content table) and fails on any difference.
            try db.execute(sql: "INSERT INTO public_fts (public_fts) VALUES ('integrity-check')")
            let schemas = try String.fetchAll(db, sql: "SELECT name FROM pragma_database_list")
            #expect(!schemas.contains(WordIndexSideBuild.schemaName))
        }
        #expect(try Self.leftovers(in: folder).isEmpty)
        // The store's own setting stays: an incremental publish holds 64 MiB of terms, not the build's 256.
        let hashSize = try besides.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT v FROM public_fts_config WHERE k = 'hashsize'")
        }
        #expect(hashSize == SQLiteStore.fullTextHashSize)
    }

    @Test("a whole index rewritten: the removed items' words are gone, the new ones' there")
    func rewritten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ordinary = try SQLiteStore(path: folder.appendingPathComponent("ordinary.sqlite").path)
        let besides = try SQLiteStore(path: folder.appendingPathComponent("besides.sqlite").path)
        for store in [ordinary, besides] {
            try Self.publish(Self.clusters(300), into: store, besides: false)
            let stored = try store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM cluster ORDER BY id") }
            try Self.publish(
                Self.clusters(300, seed: 8, rewriting: stored), into: store, besides: store === besides)
        }
        #expect(try Self.answers(besides) == Self.answers(ordinary))
        try besides.pool.write { db in
            try db.execute(sql: "INSERT INTO public_fts (public_fts) VALUES ('integrity-check')")
        }
    }

    @Test("a publish that fails leaves the store as it was and no file beside it")
    func failureRollsBack() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("s.sqlite").path)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.publishTransaction(expectingItems: 50, threshold: 10) { db, side in
                let writer = SQLitePublishWriter(db, wordIndexFile: side)
                try writer.removeClusters([], rewriting: [])
                try writer.deferItemIndexes(writing: 50, threshold: 10)
                for cluster in Self.clusters(50) { try writer.write(cluster, publishedAt: 0) }
                throw Refused()
            }
        }
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") } == 0)
        #expect(try Self.leftovers(in: folder).isEmpty)
    }

    @Test("a file left by a process that died is removed; one still held is not")
    func abandonedFiles() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        let store = try SQLiteStore(path: path)
        let abandoned = path + WordIndexSideBuild.marker + "1-2"
        let held = path + WordIndexSideBuild.marker + "3-4"
        #expect(FileManager.default.createFile(atPath: abandoned, contents: Data("x".utf8)))
        let lock = try #require(FileLock(path: held, exclusive: true, wait: false))
        try Self.publish(Self.clusters(20), into: store, besides: true)
        #expect(try Self.leftovers(in: folder) == [URL(fileURLWithPath: held).lastPathComponent])
        withExtendedLifetime(lock) {}
    }
}

/// The rows of a word index built beside the store go to FTS5 in increasing id order.
@Suite("Word index row order")
struct WordIndexRowOrderTests {
    static func row(_ id: Int64) -> WordIndexSideBuild.Row {
        WordIndexSideBuild.Row(id: id, title: "t\(id)", description: nil, keywords: nil)
    }

    @Test("rows below the floor are given in order; the rest wait; late rows come last")
    func order() {
        var order = WordIndexRowOrder()
        #expect(order.take([Self.row(5), Self.row(3), Self.row(9)], floor: 6).map(\.id) == [3, 5])
        #expect(order.waitingCount == 1)
        // 4 is below 5, already given: it waits for the end.
        #expect(order.take([Self.row(4), Self.row(7)], floor: 8).map(\.id) == [7])
        #expect(order.lateCount == 1)
        #expect(order.take([Self.row(12)], floor: 10).map(\.id) == [9])
        #expect(order.rest().map(\.id) == [12, 4])
    }

    @Test("every row is given once, and in increasing order up to the late ones", arguments: [1, 2, 3, 4, 5])
    func permutations(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let ids = (1...2_000).map { Int64($0) * 3 }.shuffled(using: &generator)
        var order = WordIndexRowOrder()
        var given: [Int64] = []
        var index = 0
        while index < ids.count {
            let count = Int(generator.next() % 50) + 1
            let batch = ids[index..<min(ids.count, index + count)]
            index += batch.count
            // A floor that holds: the lowest id still to come.
            let floor = ids[index...].min() ?? .max
            given += order.take(batch.map(Self.row), floor: floor).map(\.id)
        }
        given += order.rest().map(\.id)
        #expect(given == ids.sorted())
        #expect(order.lateCount == 0)
    }
}

/// A small deterministic generator (SplitMix64) for test data.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
