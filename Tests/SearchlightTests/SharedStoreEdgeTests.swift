import FixtureServer
import Foundation
import Testing

/// The edges of sharing one store: processes that create it together, and publishes that overlap.
@Suite("one store shared by concurrent processes: edges")
struct SharedStoreEdgeTests {
    @Test("processes opening a new store at the same moment all find its schema", arguments: 1...6)
    func simultaneousFirstOpen(round: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("first-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start(site: "example")
        let donations = folder.appendingPathComponent("donations.jsonl")
        _ = try SharedStoreFixtures.writeDonations(to: donations, activities: 20, searchableItems: 5, webPages: [])
        let store = folder.appendingPathComponent("new.sqlite").path
        let commands = SharedStoreCommands(server: server, donations: donations.path)
        let clock = Timeline()
        async let crawl = clock.run("crawl", commands.crawl(store: store))
        async let load = clock.run("import", commands.importFile(store: store))
        async let publish = clock.run("publish", commands.publish(store: store))
        async let again = clock.run("import again", commands.importFile(store: store))
        let runs = try await [crawl, load, publish, again]
        await server.stop()
        for run in runs {
            #expect(run.status == 0, "\(run.name): \(run.standardError)")
            #expect(!SharedStoreTests.mentionsLocking(run.standardError), "\(run.name): \(run.standardError)")
        }
        #expect(try integrityCheck(path: store) == ["ok"])
        let contents = try StoreContents(path: store)
        #expect(contents.counts["activity"] == 20 && contents.counts["page indexable"] == 6)
    }

    @Test("two publishes that overlap both succeed and leave the index a sequential publish builds")
    func overlappingPublishes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("publishes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start(site: "example")
        let donations = folder.appendingPathComponent("donations.jsonl")
        _ = try SharedStoreFixtures.writeDonations(to: donations, activities: 5_000, searchableItems: 100, webPages: [])
        let store = folder.appendingPathComponent("store.sqlite").path
        let commands = SharedStoreCommands(server: server, donations: donations.path)
        let clock = Timeline()
        let load = try await clock.run("import", commands.importFile(store: store))
        #expect(load.status == 0, "\(load.standardError)")
        async let first = clock.run("publish A", commands.publish(store: store))
        async let second = clock.run("publish B", commands.publish(store: store))
        let runs = try await [first, second]
        await server.stop()
        // The second publish to commit finds the first one's run and computes again from a new snapshot
        // (it used to fail with "UNIQUE constraint failed: cluster.key").
        for run in runs {
            #expect(run.status == 0, "\(run.name): \(run.standardError)")
        }
        let again = try await clock.run("publish C", commands.publish(store: store))
        #expect(again.status == 0, "\(again.standardError)")
        let contents = try StoreContents(path: store)
        #expect(contents.counts["public_item"] == 5_000 && contents.counts["cluster"] == 5_000)
        print("overlapping publishes: \(runs.map(\.summary).joined(separator: ", "))")
    }
}
