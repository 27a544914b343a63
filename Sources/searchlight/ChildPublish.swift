import Foundation
import Index

/// `serve`'s background publish as a `searchlight publish --json` child process on the same store: its
/// memory and its freeing never share the server's address space (see `SearchService.init`).
struct ChildPublish: Sendable {
    /// The `--store` value the server was given (the child reads `SEARCHLIGHT_STORE` and `PGPASSWORD` from
    /// the inherited environment as the server did).
    let store: String?

    /// Runs one publish and returns the child's summary.
    /// - Throws: ``RuntimeError`` naming the child's exit status and the last line it wrote to standard
    ///   error, or when its summary does not decode.
    func run() async throws -> PublishSummary {
        let folder = FileManager.default.temporaryDirectory
        let output = folder.appendingPathComponent("searchlight-publish-\(UUID().uuidString).json")
        let errors = folder.appendingPathComponent("searchlight-publish-\(UUID().uuidString).err")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["publish", "--json"] + (store.map { ["--store", $0] } ?? [])
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        // Awaited through the termination handler: no thread of the cooperative pool waits on the child.
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else {
            let reason =
                (try? String(contentsOf: errors, encoding: .utf8))?
                .split(separator: "\n").last.map(String.init) ?? ""
            throw RuntimeError("publish exited with \(status): \(reason)")
        }
        do {
            return try JSONDecoder().decode(PublishSummary.self, from: Data(contentsOf: output))
        } catch {
            throw RuntimeError("publish printed a summary that does not decode: \(error)")
        }
    }
}
