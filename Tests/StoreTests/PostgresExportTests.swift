import Foundation
import GRDB
import Index
import TestSupport
import Testing

@testable import Store

/// `PublicExport` on a PostgreSQL store: the same bytes as on SQLite for the same items, in chunks, streamed.
@Suite("Export on PostgreSQL writes what SQLite writes", .timeLimit(.minutes(3)))
struct PostgresExportTests {
    final class Collected: @unchecked Sendable {
        // Written only by the export's one writer call at a time, read after it returned.
        var data = Data()
        var chunks: [Int] = []
    }

    static func export(_ index: any PublicIndexStore) async throws -> Collected {
        let collected = Collected()
        let count = try await PublicExport(index: index).writeJSONLines { data in
            collected.data.append(data)
            collected.chunks.append(data.count)
        }
        #expect(count == collected.data.split(separator: 0x0A).count)
        return collected
    }

    /// Runs `body` on both stores holding `rows`, closing them afterwards.
    func withIndex(_ rows: [TestItem], _ body: (DualIndex) async throws -> Void) async throws {
        let index = try await DualIndex(rows)
        do {
            try await body(index)
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }

    @Test("items come out in byte order of their identifier, each on one line, as on SQLite")
    func sameBytesInByteOrder() async throws {
        // Identifiers a locale would sort otherwise: upper before lower case, accents by their bytes.
        let identifiers = ["b", "B", "a", "É", "e\u{301}", "z", "ß", "😀", "~", "A", "item-10", "item-9"]
        let rows = identifiers.enumerated().map { offset, identifier in
            TestItem(id: Int64(offset + 1), title: "Item \(offset)", url: identifier)
        }
        try await withIndex(rows) { index in
            // A pretty-printed item still comes out on one line; U+2028 inside a string is kept.
            let pretty = "{\n  \"uniqueIdentifier\": \"B\",\r\n  \"a\": \"x\u{2028}y\"\r}"
            try await DatabaseQueue(path: index.sqlite.path).write { db in
                try db.execute(
                    sql: "UPDATE public_item SET item_json = ? WHERE unique_identifier = 'B'", arguments: [pretty])
            }
            _ = try await index.postgres.rows(
                "UPDATE public_item SET item_json = $1 WHERE unique_identifier = 'B'", [.text(pretty)])
            let postgres = try await Self.export(index.postgres)
            let sqlite = try await Self.export(index.store)
            #expect(postgres.data == sqlite.data)
            let lines = String(decoding: postgres.data, as: UTF8.self).split(separator: "\n")
            let sorted = identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            #expect(lines.count == identifiers.count)
            #expect(lines[1] == "{  \"uniqueIdentifier\": \"B\",  \"a\": \"x\u{2028}y\"}")
            for (line, identifier) in zip(lines, sorted) where identifier != "B" {
                #expect(line.hasPrefix("{\"uniqueIdentifier\":\"\(identifier)\""), "\(line)")
            }
        }
    }

    @Test("an empty index writes nothing")
    func emptyIndex() async throws {
        try await withIndex([]) { index in
            let collected = try await Self.export(index.postgres)
            #expect(collected.chunks.isEmpty)
        }
    }

    @Test("a few thousand items come in chunks of about the chunk size, the same bytes as on SQLite")
    func chunks() async throws {
        let count = 4_000
        let rows = (1...count).map { TestItem(id: Int64($0), title: String(repeating: "x", count: 200)) }
        let index = try await DualIndex([])
        do {
            try await TestItem.publish(rows, into: index.store)
            try await TestItem.publish(rows, into: index.postgres)
            let postgres = try await Self.export(index.postgres)
            let sqlite = try await Self.export(index.store)
            #expect(postgres.data == sqlite.data)
            #expect(postgres.data.split(separator: 0x0A).count == count)
            #expect(postgres.chunks.count > 2)
            #expect(postgres.chunks.allSatisfy { $0 < PublicExport.chunkSize + 4_096 })
            #expect(postgres.chunks.dropLast().allSatisfy { $0 >= PublicExport.chunkSize })
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }

    /// The rows are streamed: while the writer holds the first chunk, the server is still sending the rest
    /// (the statement is still running). An export that read every row before writing would find it done.
    @Test("the rows are streamed: the statement is still running while the first chunk is written")
    func streams() async throws {
        let database = try await PostgresCluster.shared().makeStore()
        let count = 40_000
        do {
            try await TestItem.publish(
                (1...count).map { TestItem(id: Int64($0), title: String(repeating: "x", count: 1_000)) }, into: database
            )
            let (firstChunk, written) = AsyncStream.makeStream(of: Void.self)
            let release = DispatchSemaphore(value: 0)
            let collected = Collected()
            // The export runs on a thread of its own, so the writer's wait takes no thread of the cooperative pool.
            let export = Task(executorPreference: ThreadExecutor()) {
                defer { written.finish() }
                return try await PublicExport(index: database).writeJSONLines { data in
                    collected.chunks.append(data.count)
                    guard collected.chunks.count == 1 else { return }
                    written.yield()
                    // The writer holds the export here (as a slow disk would), bounded so a failure cannot hang.
                    _ = release.wait(timeout: .now() + 60)
                }
            }
            for await _ in firstChunk { break }
            let states = try await database.rows(
                """
                SELECT state FROM pg_stat_activity
                WHERE datname = current_database() AND backend_type = 'client backend'
                    AND query LIKE 'SELECT item_json, title, description, keywords FROM public_item%'
                """)
            release.signal()
            #expect(try await export.value == count)
            #expect(collected.chunks.count > 100)
            #expect(states == [[.text("active")]])
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}

/// Runs tasks on a serial dispatch queue, whose threads are not the cooperative pool's: a job may block there
/// without starving other tasks.
final class ThreadExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "searchlight.tests.thread-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
