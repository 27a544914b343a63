import Foundation
import SearchQuery
import Testing

@Suite("CSSearchQuery parsing")
struct QueryParserTests {
    @Test("comparisons, modifiers, combinations, InRange, $time and *")
    func parses() throws {
        #expect(
            try QueryParser.parse(#"title == "tart*"cd"#)
                == .comparison(
                    attribute: "title", op: .equal, value: .string("tart*"),
                    modifiers: [.caseInsensitive, .diacriticInsensitive]))
        #expect(
            try QueryParser.parse("rating >= 4 && (title == \"a\" || !(title != *))")
                == .and([
                    .comparison(attribute: "rating", op: .greaterOrEqual, value: .number(4), modifiers: []),
                    .or([
                        .comparison(attribute: "title", op: .equal, value: .string("a"), modifiers: []),
                        .not(.comparison(attribute: "title", op: .notEqual, value: .any, modifiers: [])),
                    ]),
                ]))
        #expect(
            try QueryParser.parse("InRange(published, $time.today(-7), $time.now)")
                == .inRange(
                    attribute: "published",
                    low: .time(TimeExpression(function: "today", offset: -7, isoText: nil)),
                    high: .time(TimeExpression(function: "now", offset: 0, isoText: nil))))
        #expect(
            try QueryParser.parse(#"published > $time.iso("2026-01-01T00:00:00Z")"#)
                == .comparison(
                    attribute: "published", op: .greater,
                    value: .time(TimeExpression(function: "iso", offset: 0, isoText: "2026-01-01T00:00:00Z")),
                    modifiers: []))
        // && binds tighter than ||.
        guard case .or(let operands) = try QueryParser.parse("a == 1 || b == 2 && c == 3"), operands.count == 2,
            case .and = operands[1]
        else {
            Issue.record("precedence")
            return
        }
    }

    @Test(
        "syntax errors name the column",
        arguments: [
            ("title == ", 10, "expected a value"),
            ("title = \"x\"", 7, "unexpected '='"),
            ("title == \"x", 10, "unterminated string"),
            ("(title == \"x\"", 14, "expected ')'"),
            ("title == \"x\" title", 14, "expected '&&', '||' or the end"),
            ("rating > *", 10, "'*' only compares"),
            ("x == $time.tomorrow", 6, "unknown $time function"),
            ("InRange(a, 1)", 13, "expected ','"),
            ("&& a == 1", 1, "expected an attribute"),
            ("a == 1 #", 8, "unexpected '#'"),
            (#"x > $time.iso("2027-02-30T00:00:00Z")"#, 15, "not an ISO 8601 date"),
            (#"x > $time.iso("2027-04-31")"#, 15, "not an ISO 8601 date"),
            (#"x > $time.iso("2027-01-01T24:00:00Z")"#, 15, "not an ISO 8601 date"),
        ])
    func errors(query: String, column: Int, message: String) {
        do {
            _ = try QueryParser.parse(query)
            Issue.record("parsed: \(query)")
        } catch {
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test("chains of && and || are flat lists, however they are parenthesized")
    func flatChains() throws {
        func comparison(_ name: String) -> QueryExpression {
            .comparison(attribute: name, op: .equal, value: .number(1), modifiers: [])
        }
        let (a, b, c, d) = (comparison("a"), comparison("b"), comparison("c"), comparison("d"))
        #expect(try QueryParser.parse("a == 1 && b == 1 && c == 1") == .and([a, b, c]))
        #expect(try QueryParser.parse("a == 1 && (b == 1 && (c == 1 && d == 1))") == .and([a, b, c, d]))
        #expect(try QueryParser.parse("(a == 1 || b == 1) || c == 1 || (d == 1)") == .or([a, b, c, d]))
        #expect(try QueryParser.parse("a == 1 || b == 1 && c == 1 || d == 1") == .or([a, .and([b, c]), d]))
        #expect(try QueryParser.parse("(a == 1 || b == 1) && c == 1") == .and([.or([a, b]), c]))
        #expect(try QueryParser.parse("!(a == 1 && b == 1) && c == 1") == .and([.not(.and([a, b])), c]))
        let long = try QueryParser.parse(Array(repeating: "a == 1", count: 500).joined(separator: "||"))
        #expect(long == .or(Array(repeating: a, count: 500)))
    }

    @Test("comparisons keep the columns of their attribute and values")
    func locations() throws {
        guard case .and(let operands) = try QueryParser.parse(#"  rating > 4 && InRange(title, "a", "b")"#),
            case .comparison(_, _, _, _, let comparison) = operands[0],
            case .inRange(_, _, _, let inRange) = operands[1]
        else {
            Issue.record("shape")
            return
        }
        #expect(comparison.attribute == 3 && comparison.values == [12])
        #expect(inRange.attribute == 25 && inRange.values == [32, 37])
    }

    @Test(
        "the deepest nesting accepted, and one level more refused at the ( or ! that goes too deep",
        arguments: ["(", "!", "!("])
    func depth(opening: String) throws {
        let levels = opening.count
        let fits = QueryParser.maxDepth / levels
        func nested(_ count: Int) -> String {
            String(repeating: opening, count: count) + "a == 1"
                + String(repeating: ")", count: count * opening.filter { $0 == "(" }.count)
        }
        _ = try QueryParser.parse(nested(fits))
        let tooDeep = nested(fits + 1)
        do {
            _ = try QueryParser.parse(tooDeep)
            Issue.record("parsed: \(tooDeep)")
        } catch {
            #expect(error.column == QueryParser.maxDepth + 1, "\(error)")
            #expect(error.message == "nested deeper than \(QueryParser.maxDepth)")
        }
    }

    @Test("bounded: over-long and over-deep queries are refused, not crashed on")
    func bounds() {
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(String(repeating: "a == 1 && ", count: 500)) }
        let deep = String(repeating: "(", count: 200) + "a == 1" + String(repeating: ")", count: 200)
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(deep) }
        let notNot = String(repeating: "!", count: 100) + "a == 1"
        #expect(throws: QuerySyntaxError.self) { try QueryParser.parse(notNot) }
    }
}
