import Foundation
import Subprocess
import SystemPackage
import Testing

/// Runs the built `searchlight` executable as a user would, capturing its output.
///
/// Spawned through Subprocess, not Foundation's `Process`: on this toolchain `Process.run()` now and then
/// crashes while it scans the test process's open descriptors (swift-corelibs-foundation #5472; seen here
/// once in a full-suite run). Nothing here blocks a thread of the cooperative pool: Subprocess reads the
/// pipes and waits for the child asynchronously.
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

    /// The most output a test run may collect per stream.
    static let outputLimit = 1 << 30

    /// Runs `searchlight` with `arguments`.
    ///
    /// - Parameters:
    ///   - standardInput: the child's standard input, from a file (so a child that stops reading early, as
    ///     `extract` does past its body limit, breaks no pipe); /dev/null when nil.
    ///   - environment: variables to set for the child on top of this process's environment (a nil value
    ///     removes one); `SEARCHLIGHT_STORE` and `PGPASSWORD` are removed unless given, so a developer's own
    ///     never reaches a test.
    ///   - directory: the child's working directory (this process's when nil).
    static func run(
        _ arguments: [String], standardInput: String? = nil, environment: [String: String?] = [:],
        directory: URL? = nil
    ) async throws -> Outcome {
        var childEnvironment = ProcessInfo.processInfo.environment
        for name in ["SEARCHLIGHT_STORE", "PGPASSWORD"] { childEnvironment[name] = nil }
        for (name, value) in environment { childEnvironment[name] = value }
        var keyed: [Environment.Key: String] = [:]
        for (name, value) in childEnvironment {
            if let key = Environment.Key(rawValue: name) { keyed[key] = value }
        }
        let input = try standardInput.map(Self.inputFile)
        defer { if let input { try? FileManager.default.removeItem(at: input) } }
        let inputDescriptor = try FileDescriptor.open(FilePath(input?.path ?? "/dev/null"), .readOnly)
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments), environment: .custom(keyed),
            workingDirectory: directory.map { FilePath($0.path) },
            input: .fileDescriptor(inputDescriptor, closeAfterSpawningProcess: true),
            output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit))
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return Outcome(
            status: status, standardOutput: String(decoding: result.standardOutput, as: UTF8.self),
            standardError: String(decoding: result.standardError, as: UTF8.self))
    }

    /// `text` in a new temporary file.
    private static func inputFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stdin-\(UUID().uuidString)")
        try Data(text.utf8).write(to: file)
        return file
    }
}

/// Parses one JSON object printed on a line.
func jsonObject(_ line: some StringProtocol) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(value as? [String: Any])
}
