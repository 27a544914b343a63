import Foundation
import Testing

/// Runs the built `searchlight` executable as a user would, capturing its output.
///
/// Nothing here blocks a thread of the cooperative pool (two threads on the CI machines):
/// the pipes are drained on threads of their own and the exit is awaited through
/// `terminationHandler`.
struct CommandRunner {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The `searchlight` binary next to the test bundle in the build folder.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("searchlight")
    }

    /// A child that exits before reading all of its standard input (as `extract` does past its body
    /// limit) closes the pipe under the writer: without this, the write raises SIGPIPE and kills the whole
    /// test process. Ignored, the write fails with EPIPE instead, which is expected there.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `searchlight` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: variables to set for the child on top of this process's environment (a nil value
    ///     removes one); `SEARCHLIGHT_STORE` and `PGPASSWORD` are removed unless given, so a developer's own
    ///     never reaches a test.
    ///   - directory: the child's working directory (this process's when nil).
    static func run(
        _ arguments: [String], standardInput: String? = nil, environment: [String: String?] = [:],
        directory: URL? = nil
    ) async throws -> Outcome {
        Self.ignoreBrokenPipes
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var childEnvironment = ProcessInfo.processInfo.environment
        for name in ["SEARCHLIGHT_STORE", "PGPASSWORD"] { childEnvironment[name] = nil }
        for (name, value) in environment { childEnvironment[name] = value }
        process.environment = childEnvironment
        if let directory { process.currentDirectoryURL = directory }
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = inputPipe
        // Drain both pipes from the start: a child whose output fills a pipe would never exit.
        async let standardOutput = drain(outputPipe)
        async let standardError = drain(errorPipe)
        let status: Int32
        do {
            status = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                if let standardInput { try? inputPipe.fileHandleForWriting.write(contentsOf: Data(standardInput.utf8)) }
                try? inputPipe.fileHandleForWriting.close()
            }
        } catch {
            closeWriteEnds(outputPipe, errorPipe)
            _ = await (standardOutput, standardError)
            throw error
        }
        // The parent's copies of the write ends must close, or the drains never see the end.
        closeWriteEnds(outputPipe, errorPipe)
        return Outcome(status: status, standardOutput: await standardOutput, standardError: await standardError)
    }

    private static func closeWriteEnds(_ pipes: Pipe...) {
        for pipe in pipes { try? pipe.fileHandleForWriting.close() }
    }

    /// Reads a pipe to its end on a dedicated thread.
    private static func drain(_ pipe: Pipe) async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
    }
}

/// Parses one JSON object printed on a line.
func jsonObject(_ line: some StringProtocol) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(value as? [String: Any])
}
