import Foundation
import Index
import Logging
import NIOPosix
import Store

/// The dedup report JSON of the last publish, written once per publish to a file that every
/// `GET /api/report` then streams.
///
/// At a million clusters the report is hundreds of megabytes, and the endpoint needs no token: reading it
/// from the store for each request would let any client keep the store busy, and streaming it from the
/// store straight to a slow client would hold a read snapshot open (and SQLite's WAL from checkpointing)
/// for as long as that client takes. So the first request after a publish writes the file (concurrent
/// requests wait for that one write), and later ones read it. The bytes are those of
/// `searchlight report --format json`, written by the same code.
///
/// File writes run on NIO's blocking-I/O thread pool, and SQLite's rows are read on a thread of their own
/// (``ReportReader``), so no thread of the cooperative pool blocks.
actor ReportCache {
    private let index: any PublicIndexStore
    private let directory: URL
    private let logger: Logger
    /// The files written, oldest first, each with the `publishedAt` of the publish it reports.
    private var files: [(publishedAt: Double, path: String)] = []
    /// The write under way, if any, and the publish it is for.
    private var pending: (publishedAt: Double, task: Task<String, any Error>)?
    private var serial = 0

    /// A cache writing its files into a new temporary folder, which ``removeFiles()`` deletes.
    /// - Throws: the file system's error when the folder cannot be created.
    init(index: any PublicIndexStore, logger: Logger) throws {
        self.index = index
        self.logger = logger
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "searchlight-serve-report-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// How many report files stay on disk: the newest, and the one before it for downloads that opened it
    /// just before a newer one was written.
    static let keptFiles = 2

    /// The path of the report file for the store's last publish, written now if it is not there yet;
    /// `nil` when nothing was published.
    /// - Throws: ``StoreError`` or a file system error.
    func file() async throws -> String? {
        guard let last = try await ReportReader(index: index).lastPublish() else { return nil }
        let publishedAt = last.publishedAt
        if let written = files.last(where: { $0.publishedAt == publishedAt }) { return written.path }
        if let pending, pending.publishedAt == publishedAt { return try await pending.task.value }
        serial += 1
        let path = directory.appendingPathComponent("report-\(serial).json").path
        let task = Task { [index] in try await Self.write(ReportReader(index: index), to: path) }
        pending = (publishedAt, task)
        defer { if self.pending?.publishedAt == publishedAt { self.pending = nil } }
        let written = try await task.value
        remember(written, for: publishedAt)
        return written
    }

    /// Records a written file and deletes the ones beyond ``keptFiles``.
    private func remember(_ path: String, for publishedAt: Double) {
        files.append((publishedAt, path))
        while files.count > Self.keptFiles {
            let old = files.removeFirst()
            try? FileManager.default.removeItem(atPath: old.path)
        }
        logger.info("report file written", metadata: ["path": "\(path)"])
    }

    /// Deletes the folder and every file in it.
    func removeFiles() {
        files.removeAll()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes the report JSON to `path` in chunks of about a megabyte, each written on NIO's thread pool.
    private static func write(_ reader: ReportReader, to path: String) async throws -> String {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let pool = NIOThreadPool.singleton
        do {
            var chunk = Data()
            _ = try await reader.writeJSON { text in
                chunk.append(contentsOf: text.utf8)
                if chunk.count >= chunkBytes {
                    let full = chunk
                    chunk.removeAll(keepingCapacity: true)
                    try await pool.runIfActive { try handle.write(contentsOf: full) }
                }
            }
            let rest = chunk
            try await pool.runIfActive {
                try handle.write(contentsOf: rest)
                try handle.close()
            }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        return path
    }

    private static let chunkBytes = 1 << 20
}
