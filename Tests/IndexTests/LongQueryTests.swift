import Foundation
import GRDB
import SearchQuery
import TestSupport
import Testing

@testable import Index
@testable import Store

/// Any query the parser accepts runs on SQLite: the longest `&&`/`||` chains the length limit admits
/// and the deepest nesting the depth limit admits go through the search API against a real store and
/// find what a scan evaluating the same condition finds.
@Suite struct LongQueryTests {
    /// The chains, each as long as ``QueryParser/maxLength`` allows.
    enum Chain: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case and, or, alternating, compactAnd, compactOr
        var testDescription: String { rawValue }

        /// Operands up front, then more repeated until the next would pass the length limit.
        var condition: ScanCondition {
            typealias C = ScanCondition
            switch self {
            case .and:
                return Self.longest(
                    [.engagement(.greaterOrEqual, 2), .foldedTitlePrefix("item"), .rating(.notEqual, 3)],
                    padding: [
                        .engagement(.greaterOrEqual, 1), .not(.keyword("k2")), .keywordInRange("a", "z"),
                        .titlePrefix("Item"), .rating(.less, 100),
                    ],
                    { C.all($0) })
            case .or:
                return Self.longest(
                    [.engagement(.equal, 5), .rating(.equal, 1), .keyword("k3")],
                    padding: [.rating(.greater, 100), .titlePrefix("Item 1"), .engagement(.less, 0), .keyword("none")],
                    { C.any($0) })
            case .alternating:
                return Self.longest(
                    [.all([.engagement(.greaterOrEqual, 4), .keyword("k1")])],
                    padding: [
                        .all([.rating(.lessOrEqual, 1), .foldedTitlePrefix("item 2")]),
                        .all([.keyword("k0"), .engagement(.equal, 2)]), .all([.rating(.greater, 99), .keyword("k2")]),
                    ],
                    { C.any($0) })
            case .compactAnd:
                return Self.longest(
                    [.engagement(.greaterOrEqual, 2, compact: true)],
                    padding: [.rating(.less, 4, compact: true), .rating(.greater, 0, compact: true)]
                ) { C.all($0, compact: true) }
            case .compactOr:
                return Self.longest(
                    [.engagement(.equal, 5, compact: true)],
                    padding: [.rating(.less, 0, compact: true), .rating(.equal, 2, compact: true)]
                ) { C.any($0, compact: true) }
            }
        }

        private static func longest(
            _ head: [ScanCondition], padding: [ScanCondition], _ list: ([ScanCondition]) -> ScanCondition
        ) -> ScanCondition {
            var operands = head
            var next = 0
            while list(operands + [padding[next % padding.count]]).text.count <= QueryParser.maxLength {
                operands.append(padding[next % padding.count])
                next += 1
            }
            return list(operands)
        }
    }

    @Test(arguments: Chain.allCases)
    func longestChainRunsAndFindsWhatAScanFinds(_ chain: Chain) async throws {
        let condition = chain.condition
        let query = condition.text
        // As long as the limit allows: one more operand would not fit.
        #expect(query.count <= QueryParser.maxLength && query.count > QueryParser.maxLength - 60)
        let comparisons = Self.comparisons(in: try QueryParser.parse(query))
        #expect(comparisons >= (chain == .compactAnd || chain == .compactOr ? 380 : 150), "\(comparisons)")
        try await expectSameAsScan(condition)
    }

    static func comparisons(in expression: QueryExpression) -> Int {
        switch expression {
        case .and(let operands), .or(let operands): operands.reduce(0) { $0 + comparisons(in: $1) }
        case .not(let inner): comparisons(in: inner)
        case .comparison, .inRange: 1
        }
    }

    /// Nesting shapes, each `depth` levels deep (a `(` or a `!` is a level) around the heaviest
    /// comparison SQL gets (`keywords != "K1"cdt`: a folded word match over `json_each`).
    enum Nesting: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `a && (b || (c && (…)))`.
        case alternating
        /// `a && (b || c && (d || e && (…)))`: two SQL lists per parenthesis.
        case orInsideAnd
        /// `!(a || !(b || !(…)))`.
        case notOr
        /// `!!!…x`.
        case nots
        /// `(((…x)))`.
        case parentheses
        var testDescription: String { rawValue }

        static let leaves: [ScanCondition] = [
            .engagement(.greaterOrEqual, 3), .rating(.less, 2), .keyword("k0"), .titlePrefix("Item 1"),
            .keywordInRange("k2", "k3"), .foldedTitlePrefix("item 2"),
        ]
        static let heaviest = ScanCondition.noKeywordWord("k1")

        /// The comparison at the bottom: after an `&&` where that takes no parentheses of its own, so
        /// that SQLite reads it with the most still open.
        var innermost: ScanCondition {
            switch self {
            case .alternating, .orInsideAnd: .all([.rating(.less, 4), Self.heaviest])
            case .notOr, .nots, .parentheses: Self.heaviest
            }
        }

        func condition(depth: Int, level: Int = 0) -> ScanCondition {
            let leaf = Self.leaves[level % Self.leaves.count]
            let next = Self.leaves[(level + 1) % Self.leaves.count]
            guard depth > 0 else { return innermost }
            switch self {
            case .alternating:
                let inner = ScanCondition.group(condition(depth: depth - 1, level: level + 1))
                return level.isMultiple(of: 2) ? .all([leaf, inner]) : .any([leaf, inner])
            case .orInsideAnd:
                return .all([leaf, .group(.any([next, condition(depth: depth - 1, level: level + 2)]))])
            case .notOr:
                guard depth > 1 else { return .not(innermost) }
                return .not(.group(.any([leaf, condition(depth: depth - 2, level: level + 1)])))
            case .nots:
                return .not(condition(depth: depth - 1, level: level))
            case .parentheses:
                return .group(condition(depth: depth - 1, level: level))
            }
        }
    }

    @Test(arguments: Nesting.allCases)
    func deepestNestingRunsAndFindsWhatAScanFinds(_ nesting: Nesting) async throws {
        let deepest = nesting.condition(depth: QueryParser.maxDepth)
        _ = try QueryParser.parse(deepest.text)
        #expect(throws: QuerySyntaxError.self) {
            try QueryParser.parse(nesting.condition(depth: QueryParser.maxDepth + 1).text)
        }
        try await expectSameAsScan(deepest)
    }

    /// 60 published items: engagement 1–5 (distinct donors), ratings 0–5 with every seventh missing,
    /// one or two keywords each; every title has the word "Item".
    static func publishedStore() async throws -> TemporaryStore {
        let store = try TemporaryStore()
        var lines: [String] = []
        for index in 0..<60 {
            let keywords: [String] = ["k\(index % 4)"] + (index % 3 == 0 ? ["x k1"] : [])
            var fields: [String: Any] = [
                "title": "Item \(index)", "persistentIdentifier": "p\(index)", "userInfo": ["id": "\(index)"],
                "requiredUserInfoKeys": ["id"], "keywords": keywords,
            ]
            if index % 7 != 0 { fields["contentAttributeSet"] = ["rating": Double(index % 6)] }
            for donor in 0..<(index % 5 + 1) {
                lines.append(activityLine(donor: "d\(donor)", fields))
            }
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)], threshold: 1)
        _ = try await store.publish()
        return store
    }

    /// Searches with `condition`'s text alone and with a word every item has, on every path the
    /// search takes (a number condition counted rare or common, ranked whole or tier by tier), and
    /// compares with the items a scan finds.
    func expectSameAsScan(_ condition: ScanCondition, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let store = try await Self.publishedStore()
        defer { store.cleanUp() }
        let query = condition.text
        let items = try await store.open().pool.read { db in try ScannedItem.all(db) }
        let expected = Set(items.filter { condition.holds($0) == true }.map(\.identifier))
        #expect(!expected.isEmpty && expected.count < items.count, "\(expected.count)", sourceLocation: sourceLocation)
        for countLimit in [1, 10_000] {
            let limits = PublicSearch.Limits(exactRank: 1_000, count: countLimit, wordRank: 20_000)
            let search = PublicSearch(store: try store.open(), limits: limits)
            let alone = try await search.search("", query: query, limit: 100)
            #expect(Set(alone.hits.map(\.uniqueIdentifier)) == expected, sourceLocation: sourceLocation)
            #expect(alone.total == expected.count, sourceLocation: sourceLocation)
            let withText = try await search.search("item", query: query, limit: 100)
            #expect(Set(withText.hits.map(\.uniqueIdentifier)) == expected, sourceLocation: sourceLocation)
        }
        // Two at most ranked whole: the text goes tier by tier, the query alone stops after its first rows.
        let small = PublicSearch(
            store: try store.open(), limits: PublicSearch.Limits(exactRank: 2, count: 2, wordRank: 2))
        for text in ["", "item"] {
            let page = try await small.search(text, query: query, limit: 100)
            #expect(
                !page.hits.isEmpty && Set(page.hits.map(\.uniqueIdentifier)).isSubset(of: expected),
                sourceLocation: sourceLocation)
        }
    }
}
