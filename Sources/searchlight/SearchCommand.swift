import ArgumentParser
import Foundation
import Index
import Logging
import Store

extension Searchlight {
    /// `searchlight search`: the public index, by free text and/or the `CSSearchQuery` language.
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Search the public index by free text and/or a CSSearchQuery string.",
            discussion: """
                Free text matches items having every word (in title, description or keywords), the last \
                word also as a prefix ('lemon ta' finds "Lemon tart"), ignoring case and diacritics; no \
                character of it is FTS5 or SQL syntax. Results are ranked by bm25 (title > keywords > \
                description) plus the item's engagement boost, best first; when more than \
                \(PublicSearch.exactRankLimit) items match (or a word is very common), by tier (all words in \
                the title, then in title or keywords, then anywhere) and engagement. Counting stops at \
                \(PublicSearch.countLimit) matches of one word (\(PublicSearch.exactRankLimit) of several): the \
                total is then a lower bound ("More than N results"; "totalIsLowerBound": true in --json). \
                --query takes the CSSearchQuery language (e.g. 'title == "lemon*"cd && rating >= 4'); given \
                with text, items must match both. On a PostgreSQL store (--store postgres://…) the search reads \
                a local replica of the public index (--index-cache), brought up to the store's last publish \
                first (one query when nothing changed; built the first time); --no-sync answers from the \
                replica as it is. Answers are the same as from a SQLite store with the same index.

                --queries FILE runs one search per line (free text, or 'q:' then a CSSearchQuery string; \
                empty lines and lines starting with '#' are skipped) and prints one JSON line per search \
                with its result count and the time the search took in this process (elapsedMs), then \
                p50/p99 on standard error.

                Exit status: 0 with results, 1 when nothing matched (or some --queries lines failed), \
                2 usage error (including a query that does not parse: 'search: column N: message'), \
                3 runtime failure (e.g. no store at --store).
                """)

        @Argument(help: "Free text to search for.")
        var text: String?

        @Option(help: ArgumentHelp("A CSSearchQuery string.", valueName: "query"))
        var query: String?

        @Option(help: ArgumentHelp("Run each line of a file as a search (benchmarks).", valueName: "file"))
        var queries: String?

        @Option(help: "The most results to print (1–\(PublicSearch.maxLimit)).")
        var limit = PublicSearch.defaultLimit

        @Flag(help: "Print the results as JSON.")
        var json = false

        @Flag(help: "On a PostgreSQL store: answer from the replica as it is, without bringing it up to date.")
        var noSync = false

        @OptionGroup var store: StoreOptions

        @OptionGroup var indexCache: IndexCacheOptions

        func validate() throws {
            guard (1...PublicSearch.maxLimit).contains(limit) else {
                throw ValidationError("--limit must be between 1 and \(PublicSearch.maxLimit).")
            }
            if queries != nil {
                guard text == nil, query == nil else {
                    throw ValidationError("--queries runs a file of searches: give no text and no --query with it.")
                }
            } else if text == nil, query == nil {
                throw ValidationError("Give text to search for, --query, or --queries.")
            }
        }

        func run() async throws {
            try await store.withPublicIndex { index in
                // Quiet: a search prints its results and nothing else (a rebuild is announced by `sync`).
                let logger = Logger(label: "searchlight.search") { _ in SwiftLogNoOpLogHandler() }
                let source = try await indexCache.searchSource(
                    for: index, sync: !noSync, showsProgress: true, logger: logger)
                try await run(PublicSearch(source: source))
            }
        }

        private func run(_ search: PublicSearch) async throws {
            if let queries {
                try await SearchBatch(search: search, limit: limit).run(file: queries)
                return
            }
            let results: SearchResults
            do {
                results = try await search.search(text ?? "", query: query, limit: limit)
            } catch {
                throw Self.exit(for: error)
            }
            if json {
                print(results.jsonText(query: text ?? query ?? ""))
            } else {
                printText(Self.text(results))
            }
            if results.total == 0 { throw Exit.partialFailure }
        }

        /// Reports a search that could not run on standard error (`search: column N: message` for a
        /// query that does not parse) and gives its exit status: 2 for a usage error, 3 for the store.
        static func exit(for error: SearchError) -> ExitCode {
            printToStandardError("search: \(error)")
            return error.isUsageError ? Exit.usage : Exit.runtimeFailure
        }

        /// Rank, title and score; the URL; the start of the description; then the count.
        static func text(_ results: SearchResults) -> String {
            guard results.total > 0 else { return "No results." }
            var lines: [String] = []
            for (rank, hit) in results.hits.enumerated() {
                lines.append("\(rank + 1). \(hit.title)  (score \(String(format: "%.3f", hit.score)))")
                lines.append("   \(hit.webpageURL ?? hit.uniqueIdentifier)")
                if let description = hit.contentDescription, !description.isEmpty {
                    let flat = description.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    lines.append("   " + (flat.count > 160 ? flat.prefix(159) + "…" : flat))
                }
            }
            let shown = results.hits.count
            if results.totalIsLowerBound {
                lines.append("More than \(results.total - 1) results, \(shown) shown.")
            } else {
                lines.append(
                    shown == results.total
                        ? "\(shown) result\(shown == 1 ? "" : "s")." : "\(results.total) results, \(shown) shown.")
            }
            return lines.joined(separator: "\n")
        }
    }
}
