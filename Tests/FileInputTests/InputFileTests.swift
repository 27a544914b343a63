import FileInput
import Foundation
import Testing

/// The one bounded reader of files the user names: the bytes in order whatever the chunk size, and the
/// system's reason when a file cannot be read.
@Suite("Input files")
struct InputFileTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("chunks put back together are the file, at every size around a chunk's", arguments: [0, 1, 63, 64, 65, 200])
    func chunks(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try Self.temporaryFile(bytes)
        defer { unlink(path) }
        var read: [UInt8] = []
        var largest = 0
        try InputFile.forEachChunk(of: path, chunkBytes: 64) { chunk in
            largest = max(largest, chunk.count)
            read.append(contentsOf: chunk)
        }
        #expect(read == bytes)
        #expect(largest <= 64)
        #expect(try InputFile.read(path, limit: size) == bytes)
    }

    @Test("a file over the limit is refused, naming the limit and its option")
    func limit() throws {
        let path = try Self.temporaryFile([UInt8](repeating: 65, count: 100))
        defer { unlink(path) }
        #expect(throws: InputFile.ReadError(isOpening: false, description: "larger than the limit of 99 bytes (--max)"))
        {
            try InputFile.read(path, limit: 99, limitName: "--max")
        }
    }

    @Test("a missing file and a directory get the system's reason, as failures to open")
    func unreadable() throws {
        #expect(throws: InputFile.ReadError(isOpening: true, description: "cannot open: No such file or directory")) {
            try InputFile.read("/no/such/file", limit: 10)
        }
        #expect(throws: InputFile.ReadError(isOpening: true, description: "cannot read: is a directory")) {
            try InputFile.forEachChunk(of: FileManager.default.temporaryDirectory.path) { _ in }
        }
    }

    @Test("no path and - name standard input")
    func standardInput() {
        #expect(InputFile.isStandardInput(nil))
        #expect(InputFile.isStandardInput("-"))
        #expect(!InputFile.isStandardInput("./-"))
    }

    @Test("an error from the reader's body ends the reading and comes out as it is")
    func bodyError() throws {
        struct Stop: Error {}
        let path = try Self.temporaryFile([UInt8](repeating: 1, count: 300))
        defer { unlink(path) }
        var calls = 0
        #expect(throws: Stop.self) {
            try InputFile.forEachChunk(of: path, chunkBytes: 100) { _ in
                calls += 1
                throw Stop()
            }
        }
        #expect(calls == 1)
    }
}
