import ArgumentParser
import Foundation
import Logging

/// The `searchlight` command: a thin layer over the library modules. Each subcommand
/// lives in its own file as a nested type.
///
/// Every command spells out its `commandName`: without it ArgumentParser derives the name from the type
/// with `String(describing:)`, a protocol-conformance search of the whole binary at every start.
@main
struct Searchlight: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "searchlight",
        abstract: "Crawl sites, read their app and web markup, and build a public search index.",
        discussion: """
            Exit status: 0 success, 1 the answer is "no" or some records failed (details printed), \
            2 usage error, 3 runtime failure.
            """,
        version: "0.1.0",
        subcommands: [
            Crawl.self, Import.self, Publish.self, Search.self, Report.self, Export.self, Delete.self, Fetch.self,
            Extract.self, Validate.self, RobotsCheck.self, Serve.self, Sync.self, Token.self,
        ]
    )

    /// Runs the command, mapping errors onto the exit statuses of SPEC §7: argument
    /// errors exit 2 (ArgumentParser's own default would be 64), and any other error a
    /// command throws is a runtime failure, 3.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Self.exit(withError: exit)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                printToStandardError(fullMessage(for: error))
                Self.exit(withError: Exit.usage)
            } else if code == .success || error is CleanExit {
                Self.exit(withError: error)
            } else {
                if let error = error as? RuntimeError {
                    // The command's own words, without ArgumentParser's "Error: " in front.
                    printToStandardError("searchlight: \(error)")
                } else {
                    printToStandardError("searchlight: \(fullMessage(for: error))")
                }
                Self.exit(withError: Exit.runtimeFailure)
            }
        }
    }
}

/// Options every subcommand shares.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log what happens to standard error (repeat for more detail).")
    var verbose: Int

    /// Bootstraps logging once for the process; libraries only receive loggers. Without `-v` only
    /// `quietLevel` and above are logged (a server logs its requests at `.info`).
    func bootstrapLogging(quietLevel: Logger.Level = .warning) {
        let level: Logger.Level = verbose >= 2 ? .trace : verbose == 1 ? .debug : quietLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

/// Exit statuses of SPEC §7.
enum Exit {
    /// Success.
    static let success = ExitCode(0)
    /// The answer is "no", or some records failed.
    static let partialFailure = ExitCode(1)
    /// A usage error.
    static let usage = ExitCode(2)
    /// The command could not do its work.
    static let runtimeFailure = ExitCode(3)
}
