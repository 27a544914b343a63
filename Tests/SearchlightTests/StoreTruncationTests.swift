import Foundation
import Testing

/// A SQLite store cut short by another program under a running server (an operator copying a backup over
/// it, a full disk): the server reads through `pread`, not a memory map, so it answers with errors instead
/// of dying of SIGBUS, and still stops cleanly.
@Suite("serve outlives its store file being cut short")
struct StoreTruncationTests {
    @Test("searches and item look-ups after the file is cut to 8 KiB each get an answer; SIGTERM still exits 0")
    func truncatedUnderServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("truncated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        // Enough items that the index spans megabytes: most pages a search reads are past the cut.
        let lines = try (0..<3000).map { index in
            try ServeCommandTests.activity("\(index)", title: "Recipe \(index) word\(index % 97) dish\(index % 13)")
        }
        let donations = folder.appendingPathComponent("d.jsonl")
        try lines.joined(separator: "\n").write(to: donations, atomically: true, encoding: .utf8)
        #expect(
            try await CommandRunner.run(["import", donations.path, "--engagement-threshold", "1", "--store", store])
                .status == 0)
        #expect(try await CommandRunner.run(["publish", "--store", store]).status == 0)
        let server = try await ServeProcess(["--store", store])
        #expect(try await server.request("/api/search?q=word5").status == 200)

        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: store))
        try file.truncate(atOffset: 8192)
        try file.close()
        for index in 0..<40 {
            let path =
                index % 2 == 0
                ? "/api/search?q=word\(index)+dish\(index % 13)" : "/api/items/app%3A\(index)"
            // Any answer will do (503 for a store that cannot be read); a dead server gives none.
            let answer = try await server.request(path)
            #expect(answer.status > 0, "\(path)")
        }
        #expect(try await server.request("/metrics").status == 200)
        server.process.terminate()
        #expect(await server.process.waitForExit() == 0, "\(server.process.standardError)")
    }
}
