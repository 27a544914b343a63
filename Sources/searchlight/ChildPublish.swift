import Foundation
import Index
import Subprocess
import SystemPackage

/// `serve`'s background publish as a `searchlight publish --json` child process on the same store: its
/// memory and its freeing never share the server's address space (see `SearchService.init`).
///
/// Spawned through Subprocess, not Foundation's `Process`, whose `run()` on this toolchain now and then
/// crashes while it scans the server's open descriptors (swift-corelibs-foundation #5472): a server
/// spawns a publish every interval for as long as it runs.
struct ChildPublish: Sendable {
    /// The `--store` value the server was given (the child reads `SEARCHLIGHT_STORE` and `PGPASSWORD` from
    /// the inherited environment as the server did).
    let store: String?

    /// The most a child may write on each stream before it counts as a failure: a summary is a few hundred
    /// bytes, and its error output a few lines.
    static let outputLimit = 16 << 20

    /// How long a cancelled child has after SIGTERM before it is sent SIGKILL.
    static let terminationGrace = Duration.seconds(5)

    /// Runs one publish and returns the child's summary.
    ///
    /// Cancelling the task stops the child cleanly: SIGTERM ends it (its open transaction rolls back whole;
    /// nothing of the publish is committed), and SIGKILL follows only if it is still running after
    /// ``terminationGrace``.
    /// - Throws: ``RuntimeError`` naming the child's exit status and the last line it wrote to standard
    ///   error, or when it could not start, wrote too much, or its summary does not decode.
    func run() async throws -> PublishSummary {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var options = PlatformOptions()
        options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: Self.terminationGrace)]
        let result: ExecutionResult<Void, DataOutput, DataOutput>
        do {
            result = try await Subprocess.run(
                .path(FilePath(executable)),
                arguments: Arguments(["publish", "--json"] + (store.map { ["--store", $0] } ?? [])),
                environment: .inherit, platformOptions: options, input: .none, output: .data(limit: Self.outputLimit),
                error: .data(limit: Self.outputLimit))
        } catch {
            throw RuntimeError("publish could not run: \(error)")
        }
        guard case .exited(0) = result.terminationStatus else {
            let reason = String(decoding: result.standardError, as: UTF8.self).split(separator: "\n").last ?? ""
            throw RuntimeError("publish ended with \(result.terminationStatus): \(reason)")
        }
        do {
            return try JSONDecoder().decode(PublishSummary.self, from: result.standardOutput)
        } catch {
            throw RuntimeError("publish printed a summary that does not decode: \(error)")
        }
    }
}
