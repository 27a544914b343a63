import ArgumentParser
import Bridge
import Foundation
import Index
import PlainText

extension Searchlight {
    /// `searchlight report`: the dedup report of the last publish.
    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract:
                "Show the dedup report of the last publish: clusters, members, and why each was published or not.",
            discussion: """
                json prints every cluster (SPEC §6 shape, streamed); text, markdown and html list at most \
                --limit clusters, withheld and merged ones first, and say how many were left out. The html \
                page is self-contained (no scripts, no external resources).
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json, markdown, html
        }

        @Option(help: "Output format.")
        var format: Format = .text

        @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?

        @Option(help: ArgumentHelp("Clusters listed in text, markdown and html.", valueName: "n"))
        var limit = 1000

        @OptionGroup var store: StoreOptions

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard limit >= 0 else { throw ValidationError("--limit must not be negative.") }
        }

        func run() async throws {
            global.bootstrapLogging()
            try await store.withPublicIndex { index in try await write(ReportReader(index: index)) }
        }

        private func write(_ reader: ReportReader) async throws {
            var sink = try ReportSink(path: output)
            defer { sink.close() }
            if format == .json {
                guard try await reader.writeJSON({ sink.write($0) }) else {
                    throw RuntimeError("nothing was published yet: run `searchlight publish`")
                }
                return
            }
            guard let report = try await reader.report(clusterLimit: limit) else {
                throw RuntimeError("nothing was published yet: run `searchlight publish`")
            }
            let limits = DedupReport.ListingLimits(clusters: limit)
            let text: String
            switch format {
            case .text: text = report.renderedText(limits: limits)
            case .markdown: text = report.renderedMarkdown(limits: limits)
            case .html: text = report.renderedHTML(limits: limits)
            case .json: text = ""
            }
            // The renderers show a control character as `\u{…}`; this is the second line of defence.
            let safe = PlainText.terminalSafe(text)
            sink.write(safe.hasSuffix("\n") ? safe : safe + "\n")
        }
    }
}

/// Standard output or a file, written in pieces.
struct ReportSink {
    private let handle: FileHandle
    private let ownsHandle: Bool

    init(path: String?) throws {
        guard let path, path != "-" else {
            handle = FileHandle.standardOutput
            ownsHandle = false
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else { throw RuntimeError("\(path): cannot write the file") }
        handle = file
        ownsHandle = true
    }

    mutating func write(_ text: String) {
        handle.write(Data(text.utf8))
    }

    func close() {
        if ownsHandle { try? handle.close() }
    }
}
