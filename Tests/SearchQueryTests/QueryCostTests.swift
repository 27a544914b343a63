import FixtureServer
import SearchQuery
import TestSupport
import Testing

/// A query is refused for its length after at most ``QueryParser/maxLength`` characters are looked at.
@Suite("Query cost")
struct QueryCostTests {
    @Test("a query of 8 MB is refused for its length in the time one just over the limit takes")
    func hugeQuery() {
        let huge = String(repeating: "é", count: 4 << 20)
        let justOver = String(repeating: "é", count: QueryParser.maxLength + 1)
        for query in [huge, justOver] {
            #expect {
                try QueryParser.parse(query)
            } throws: { error in
                (error as? QuerySyntaxError)?.column == QueryParser.maxLength + 1
            }
        }
        // Exactly at the limit is not refused for its length (it is no query, so it fails at its first column).
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(String(justOver.dropLast())) }
        let timing = TwinTiming.measure(within: 20) {
            _ = try? QueryParser.parse(huge)
        } twin: {
            _ = try? QueryParser.parse(justOver)
        }
        #expect(timing.isWithin(20), "\(timing)")
    }
}
