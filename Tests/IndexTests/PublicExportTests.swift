import Foundation
import GRDB
import Index
import TestSupport
import Testing

@testable import Store

/// `export`: every item's JSON, one per line, by uniqueIdentifier.
@Suite struct PublicExportTests {
    final class Collected: @unchecked Sendable {
        // Written only by the export's one reading thread, read after it returned.
        var data = Data()
        var chunks = 0
    }

    @Test func linesInIdentifierOrderAsStored() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        try await TestItem.publish(
            [
                TestItem(id: 1, title: "B", url: "https://b.example/"),
                TestItem(id: 2, title: "A", url: "https://a.example/"),
                TestItem(id: 3, title: "C", url: "https://c.example/"),
            ], into: try SQLiteStore(path: store.path))
        // A pretty-printed item still comes out on one line.
        let queue = try DatabaseQueue(path: store.path)
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE public_item SET item_json = ? WHERE id = 3", arguments: ["{\n  \"a\": \"x\u{2028}y\"\r\n}"]
            )
        }
        let collected = Collected()
        let count = try await PublicExport(store: opened).writeJSONLines { data in
            collected.data.append(data)
            collected.chunks += 1
        }
        #expect(count == 3)
        #expect(collected.chunks == 1)
        let lines = String(decoding: collected.data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[3].isEmpty)
        #expect(lines[0] == #"{"uniqueIdentifier":"https://a.example/","attributeSet":{"title":"A"}}"#)
        #expect(lines[1] == #"{"uniqueIdentifier":"https://b.example/","attributeSet":{"title":"B"}}"#)
        #expect(lines[2] == "{  \"a\": \"x\u{2028}y\"}")
    }

    @Test func chunksStayBounded() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        try await TestItem.publish(
            (1...4_000).map { TestItem(id: Int64($0), title: String(repeating: "x", count: 200)) },
            into: try SQLiteStore(path: store.path))
        let collected = Collected()
        let count = try await PublicExport(store: opened).writeJSONLines { data in
            #expect(data.count < PublicExport.chunkSize + 4_096)
            collected.data.append(data)
            collected.chunks += 1
        }
        #expect(count == 4_000)
        #expect(collected.chunks > 2)
        #expect(collected.data.split(separator: 0x0A).count == 4_000)
    }
}
