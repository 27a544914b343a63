import Foundation
import GRDB
import SearchQuery
import Testing

/// Compiled queries run against a real SQLite table: which rows match is the test.
@Suite("CSSearchQuery compiled to SQL")
struct QueryCompilerTests {
    static let compiler = QueryCompiler(columns: [
        "title": QueryColumn(sql: "title", kind: .text),
        "rating": QueryColumn(sql: "rating", kind: .number),
        "published": QueryColumn(sql: "published", kind: .date),
    ])
    /// 2026-11-22T12:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT, rating REAL, published REAL)")
            let rows: [(String?, Double, Double)] = [
                ("Lemon tart", 4.5, 1_795_348_800 - 3600),  // an hour ago
                ("lemon curd", 3.0, 1_795_348_800 - 10 * 86_400),  // ten days ago
                ("Rye loaf [sourdough]", 4.9, 1_795_348_800 - 40 * 86_400),
                ("Star*fruit", 2.0, 1_795_348_800 - 2 * 86_400),
                (nil, 1.0, 0),
            ]
            for (title, rating, published) in rows {
                try db.execute(
                    sql: "INSERT INTO items (title, rating, published) VALUES (?, ?, ?)",
                    arguments: [title, rating, published])
            }
        }
        return queue
    }

    static func matches(_ query: String) throws -> [Int64] {
        let (sql, arguments) = try compiler.compile(try QueryParser.parse(query), now: now)
        let values: [DatabaseValueConvertible] = arguments.map { argument in
            switch argument {
            case .text(let text): text
            case .number(let number): number
            }
        }
        return try database().read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM items WHERE \(sql) ORDER BY id", arguments: StatementArguments(values))
        }
    }

    @Test(
        "matches",
        arguments: [
            (#"title == "Lemon tart""#, [1]),
            (#"title == "lemon tart""#, []),
            (#"title == "lemon tart"c"#, [1]),
            (#"title == "lemon*""#, [2]),
            (#"title == "lemon*"c"#, [1, 2]),
            (#"title == "*[sourdough]""#, [3]),
            (#"title == "Star\*fruit""#, [4]),
            (#"title == "*\**""#, [4]),
            (#"title == "curd"w"#, [2]),
            (#"title == "tart lemon"ct"#, [1]),
            (#"title != "lemon curd""#, [1, 3, 4]),
            ("title == *", [1, 2, 3, 4]),
            ("title != *", [5]),
            ("rating >= 4.5", [1, 3]),
            ("rating < 3 || rating > 4.8", [3, 4, 5]),
            ("!(rating < 4)", [1, 3]),
            ("InRange(rating, 2, 4)", [2, 4]),
            ("published >= $time.today", [1]),
            ("published > $time.now(-7200)", [1]),
            ("InRange(published, $time.today(-14), $time.now)", [1, 2, 4]),
            (#"published < $time.iso("2026-11-01T00:00:00Z")"#, [3, 5]),
            (#"published < "2026-11-01T00:00:00Z""#, [3, 5]),
        ])
    func matching(query: String, expected: [Int64]) throws {
        #expect(try Self.matches(query) == expected)
    }

    @Test("user text never becomes SQL: quotes, comments and GLOB syntax stay data")
    func injection() throws {
        #expect(try Self.matches(#"title == "x' OR 1=1 --""#) == [])
        #expect(try Self.matches(#"title == "?*""#) == [])  // '?' is literal, not GLOB's any-character
        let (sql, arguments) = try Self.compiler.compile(try QueryParser.parse(#"title == "'; DROP TABLE items; --""#))
        #expect(!sql.contains("DROP") && arguments == [.text("'; DROP TABLE items; --")])
    }

    @Test(
        "the compiler's errors name the 1-based column of the attribute or the value",
        arguments: [
            (#"color == "red""#, 1, "unknown attribute 'color'"),
            (#"rating >= 1 && (title == "a" || colour == "red")"#, 33, "unknown attribute 'colour'"),
            ("InRange(colour, 1, 2)", 9, "unknown attribute 'colour'"),
            (#"rating == "x""#, 11, "wrong kind"),
            (#"  !(rating < "high")"#, 14, "wrong kind"),
            ("title == $time.now", 10, "wrong kind"),
            (#"InRange(rating, 1, "x")"#, 20, "wrong kind"),
            ("InRange(rating, *, 3)", 17, "wrong kind"),
            (#"published == "yesterday""#, 14, "not an ISO 8601 date: 'yesterday'"),
            (#"InRange(published, "2026-01-01T00:00:00Z", "soon")"#, 44, "not an ISO 8601 date: 'soon'"),
            (#"title == "x" && rating > 1 || published > "2026-13-45""#, 43, "not an ISO 8601 date"),
        ])
    func errorColumns(query: String, column: Int, message: String) throws {
        let expression = try QueryParser.parse(query)
        do {
            _ = try Self.compiler.compile(expression, now: Self.now)
            Issue.record("compiled: \(query)")
        } catch {
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test("unknown attributes and values of the wrong kind are refused")
    func refused() {
        #expect(throws: QuerySyntaxError.self) { try Self.compiler.compile(try QueryParser.parse("color == \"red\"")) }
        #expect(throws: QuerySyntaxError.self) { try Self.compiler.compile(try QueryParser.parse("rating == \"x\"")) }
        #expect(throws: QuerySyntaxError.self) {
            try Self.compiler.compile(try QueryParser.parse("published == \"yesterday\""))
        }
    }
}
