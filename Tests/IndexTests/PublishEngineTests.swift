import Foundation
import Index
import TestSupport
import Testing

/// The publisher's contract on both engines: incremental publishes, one publisher at a time, and
/// readers that see the previous index or the new one, never half of it.
@Suite("Publishing on either engine", .timeLimit(.minutes(3)))
struct PublishEngineTests {
    static func activities(_ range: Range<Int>, title: (Int) -> String = { "Recipe \($0)" }) -> [String] {
        range.flatMap { PublishTests.infoActivities("r-\($0)", title: title($0)) }
    }

    @Test("a second publish rewrites only what changed", arguments: StoreEngine.allCases)
    func incremental(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        _ = try await store.importLines(Self.activities(0..<20))
        let first = try await store.publish()
        #expect(first.published == 20 && first.changedClusters == 20 && first.unchangedClusters == 0)
        let again = try await store.publish()
        #expect(again.published == 20 && again.changedClusters == 0 && again.unchangedClusters == 20)
        // One activity's content changes: its cluster alone is rewritten, under a new item id.
        _ = try await store.importLines(
            PublishTests.infoActivities("r-3", title: "Lemon tart", donors: ["d", "e", "f"]), name: "b.jsonl")
        let third = try await store.publish()
        #expect(third.changedClusters == 1 && third.unchangedClusters == 19 && third.published == 20)
        #expect(try await store.texts("SELECT title FROM public_item WHERE title LIKE 'Lemon%'") == ["Lemon tart"])
        #expect(try await store.count("SELECT count(*) FROM publish_run") == 3)
        // A raised threshold withholds everything and removes nothing it may keep.
        let raised = try await store.publish(threshold: 7)
        #expect(raised.published == 0 && raised.withheld["belowEngagementThreshold"] == 20)
        #expect(try await store.count("SELECT count(*) FROM public_item") == 0)
        #expect(try await store.count("SELECT count(*) FROM activity") == 0)
    }

    @Test("publishes running at once all succeed, and only the first rewrites", arguments: StoreEngine.allCases)
    func concurrentPublishes(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        _ = try await store.importLines(Self.activities(0..<150))
        let summaries = try await withThrowingTaskGroup(of: PublishSummary.self) { group in
            for _ in 0..<3 { group.addTask { try await store.publish() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(summaries.map(\.published) == [150, 150, 150])
        #expect(summaries.map(\.changedClusters).sorted() == [0, 0, 150])
        #expect(try await store.count("SELECT count(*) FROM public_item") == 150)
        #expect(try await store.count("SELECT count(DISTINCT id) FROM public_item") == 150)
    }

    @Test("a reader sees the previous index or the new one, never a part", arguments: StoreEngine.allCases)
    func readersSeeWholeIndexes(engine: StoreEngine) async throws {
        let store = try await DonationStoreUnderTest.make(engine)
        defer { Task { await store.cleanUp() } }
        _ = try await store.importLines(Self.activities(0..<500))
        _ = try await store.publish()
        _ = try await store.importLines(Self.activities(500..<1000), name: "b.jsonl")
        let publishing = Task { try await store.publish() }
        var seen = Set<Int>()
        let deadline = Date().addingTimeInterval(60)
        while !seen.contains(1000), Date() < deadline {
            seen.insert(try await store.count("SELECT count(*) FROM public_item"))
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(try await publishing.value.published == 1000)
        #expect(seen.isSubset(of: [500, 1000]), "\(seen.sorted())")
    }
}
