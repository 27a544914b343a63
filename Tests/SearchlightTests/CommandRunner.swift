import Foundation
import Testing

/// Runs the built `searchlight` executable as a user would, capturing its output.
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

    static func run(_ arguments: [String], standardInput: String? = nil) async throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let standardInput { input.fileHandleForWriting.write(Data(standardInput.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        async let out = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        async let err = Task.detached { error.fileHandleForReading.readDataToEndOfFile() }.value
        let (outData, errData) = await (out, err)
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }
}

/// Parses one JSON object printed on a line.
func jsonObject(_ line: some StringProtocol) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(value as? [String: Any])
}
