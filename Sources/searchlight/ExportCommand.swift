import ArgumentParser
import Foundation
import Index
import Store

extension Searchlight {
    /// `searchlight export`: the public index as JSON Lines.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the public index as JSON Lines (one published item per line).",
            discussion: """
                Each line is an item as SPEC §6 prints it, in increasing uniqueIdentifier, so exports of \
                the same index are identical. Streamed: memory stays flat for any index size. With \
                --output the file appears complete or not at all (written aside, then renamed).

                Exit status: 0 written, 2 usage error, 3 runtime failure (no store, unwritable output).
                """)

        /// The output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case jsonl
        }

        @Option(help: "The output format.")
        var format = Format.jsonl

        @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?

        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.withPublicIndex { index in try await run(PublicExport(index: index)) }
        }

        private func run(_ export: PublicExport) async throws {
            guard let output else {
                let count = try await export.writeJSONLines { data in FileHandle.standardOutput.write(data) }
                printToStandardError("exported \(count) item\(count == 1 ? "" : "s")")
                return
            }
            let destination = URL(fileURLWithPath: output)
            let partial = destination.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.lastPathComponent).partial-\(getpid())")
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw RuntimeError("\(output): cannot create the file")
            }
            do {
                let handle = try FileHandle(forWritingTo: partial)
                defer { try? handle.close() }
                let count = try await export.writeJSONLines { data in try handle.write(contentsOf: data) }
                try handle.synchronize()
                // rename(2) replaces the destination atomically.
                guard rename(partial.path, destination.path) == 0 else {
                    throw RuntimeError("\(output): cannot rename the finished file into place (errno \(errno))")
                }
                printToStandardError("exported \(count) item\(count == 1 ? "" : "s") to \(output)")
            } catch {
                try? FileManager.default.removeItem(at: partial)
                if let error = error as? SearchError { throw RuntimeError(error.description) }
                throw RuntimeError("\(output): \(error)")
            }
        }
    }
}
