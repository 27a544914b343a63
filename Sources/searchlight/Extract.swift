import ArgumentParser
import Foundation
import Items
import Markup

extension Searchlight {
    /// `searchlight extract FILE|DIR|- --url URL`: what a crawler would make of saved HTML, offline.
    struct Extract: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract",
            abstract: "Extract markup and the searchable item from saved HTML, offline.",
            discussion: """
                FILE is read as the page at --url; '-' reads standard input. A DIR is walked: every \
                .html/.htm file is a page whose URL is its path below DIR joined onto --url \
                (index.html maps to the folder's URL), one result per page, JSON Lines with --json.
                --require title,description,deep-link,image,structured-data makes the exit status 1 \
                and names every page that misses a required part: the offline check a web team runs \
                in CI. A page larger than --max-body-size (10 MiB, as the crawler) is reported and \
                skipped. Exit status: 0 all pages fine, 1 some page misses a required part or could \
                not be read, 2 usage error.
                """
        )

        @Argument(
            help: ArgumentHelp("A saved HTML file, a directory of them, or '-' for standard input.", valueName: "path"))
        var path: String

        @Option(help: ArgumentHelp("The URL the page (or the directory) was saved from.", valueName: "url"))
        var url: String

        @Flag(help: "Print JSON (one object per page; JSON Lines for a directory).")
        var json = false

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "A response header the page came with (Content-Type, X-Robots-Tag).", valueName: "Name: value"))
        var headers: [String] = []

        @Option(
            help: ArgumentHelp(
                "Parts every page must have: \(PageExtraction.Part.allCases.map(\.rawValue).joined(separator: ",")).",
                valueName: "parts"))
        var require: String?

        @Option(
            help: ArgumentHelp(
                "The largest page read, in bytes (the crawler's body limit); a larger file is reported and skipped.",
                valueName: "bytes"))
        var maxBodySize = 10 * 1024 * 1024

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard maxBodySize > 0 else { throw ValidationError("--max-body-size must be positive.") }
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw ValidationError("--url must be an absolute http or https URL.")
            }
            for header in headers where !header.contains(":") {
                throw ValidationError("--header '\(header)' is not 'Name: value'.")
            }
            _ = try requiredParts()
        }

        func run() async throws {
            global.bootstrapLogging()
            let parts = try requiredParts()
            let pages = try PageSource.pages(at: path, baseURL: url)
            var failures = 0
            for page in pages {
                let extraction: PageExtraction
                do {
                    let bytes = try page.read(limit: maxBodySize)
                    extraction = PageExtraction(bytes: bytes, url: page.url, headers: parsedHeaders)
                } catch {
                    failures += 1
                    printToStandardError("\(page.displayPath): \(error)")
                    continue
                }
                if json {
                    print(extraction.jsonValue.serialized())
                } else {
                    printText(ExtractionText(extraction).render(path: page.displayPath))
                }
                let missing = extraction.missing(parts)
                if !missing.isEmpty {
                    failures += 1
                    printToStandardError(
                        "\(page.displayPath): missing \(missing.map(\.rawValue).joined(separator: ", ")) (\(page.url))")
                }
            }
            if failures > 0 { throw Exit.partialFailure }
        }

        private func requiredParts() throws -> [PageExtraction.Part] {
            guard let require else { return [] }
            return try require.split(separator: ",").map { name in
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let part = PageExtraction.Part(rawValue: trimmed) else {
                    throw ValidationError(
                        "--require: unknown part '\(trimmed)'; use \(PageExtraction.Part.allCases.map(\.rawValue).joined(separator: ","))"
                    )
                }
                return part
            }
        }

        private var parsedHeaders: [(name: String, value: String)] {
            headers.compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (
                    String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                )
            }
        }
    }
}
