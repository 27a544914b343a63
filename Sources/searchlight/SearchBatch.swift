import ArgumentParser
import FileInput
import Foundation
import Index
import Store

/// `search --queries FILE`: one search per line, each timed in this process, as JSON Lines.
struct SearchBatch {
    /// The most lines read from one file.
    static let maxLines = 1_000_000

    let search: PublicSearch
    let limit: Int

    /// Runs every search of `file` and prints `{"line","query","kind","total","returned","elapsedMs"}`
    /// (or `{"line","query","error"}`) per line, then the latency percentiles on standard error.
    /// - Throws: exit 1 when some lines failed; a runtime error when the file cannot be read.
    func run(file: String) async throws {
        let data: [UInt8]
        do {
            data = try InputFile.read(file, limit: 64 << 20)
        } catch {
            throw RuntimeError("\(file): \(error)")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count <= Self.maxLines else { throw RuntimeError("\(file): more than \(Self.maxLines) lines") }
        var timings: [Double] = []
        var failed = 0
        let clock = ContinuousClock()
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let isQuery = line.hasPrefix("q:")
            let text = isQuery ? "" : line
            let query = isQuery ? String(line.dropFirst(2)).trimmingCharacters(in: .whitespaces) : nil
            var object: [String: Any] = ["line": index + 1, "query": query ?? text, "kind": isQuery ? "query" : "text"]
            do {
                var results = SearchResults(total: 0, hits: [])
                let elapsed = try await clock.measure {
                    results = try await search.search(text, query: query, limit: limit)
                }
                let milliseconds =
                    Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
                timings.append(milliseconds)
                object["total"] = results.total
                if results.totalIsLowerBound { object["totalIsLowerBound"] = true }
                object["returned"] = results.hits.count
                object["elapsedMs"] = (milliseconds * 1000).rounded() / 1000
            } catch let error as SearchError {
                guard error.isUsageError else { throw RuntimeError(error.description) }
                failed += 1
                object["error"] = error.description
            }
            let output = try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: output, as: UTF8.self))
        }
        printToStandardError(Self.summary(timings))
        if failed > 0 { throw Exit.partialFailure }
    }

    /// `searches: N, p50 X ms, p99 Y ms, max Z ms` (nearest-rank percentiles).
    static func summary(_ timings: [Double]) -> String {
        guard !timings.isEmpty else { return "searches: 0" }
        let sorted = timings.sorted()
        func percentile(_ p: Double) -> Double {
            sorted[max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
        }
        func format(_ value: Double) -> String { String(format: "%.3f", value) }
        return "searches: \(sorted.count), p50 \(format(percentile(0.5))) ms, p99 \(format(percentile(0.99))) ms, "
            + "max \(format(sorted[sorted.count - 1])) ms"
    }
}
