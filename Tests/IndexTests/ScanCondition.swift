import Foundation
import GRDB
import SearchQuery

/// A published item as a plain scan of `public_item` reads it.
struct ScannedItem: Sendable {
    var identifier: String
    var title: String
    var engagement: Double
    var rating: Double?
    var keywords: [String]?

    /// Every published item, read without the query language.
    static func all(_ db: Database) throws -> [ScannedItem] {
        try Row.fetchAll(db, sql: "SELECT unique_identifier, title, engagement, rating, keywords FROM public_item").map
        {
            row in
            ScannedItem(
                identifier: row["unique_identifier"], title: row["title"], engagement: row["engagement"],
                rating: row["rating"],
                keywords: (row["keywords"] as String?).map { $0.split(separator: "\n").map(String.init) })
        }
    }
}

/// A condition written both as `CSSearchQuery` text and as its meaning in Swift, evaluated the way SQL
/// evaluates the compiled condition (three-valued: a comparison with a missing number is unknown, and
/// `!` of unknown is unknown): the scan side of a differential test, independent of the compiler.
indirect enum ScanCondition: Sendable {
    case leaf(String, @Sendable (ScannedItem) -> Bool?)
    /// All of the operands; `compact` joins them with `&&` alone, no spaces.
    case all([ScanCondition], compact: Bool = false)
    /// Any of the operands; `compact` joins them with `||` alone, no spaces.
    case any([ScanCondition], compact: Bool = false)
    case not(ScanCondition)
    /// The condition in explicit parentheses.
    case group(ScanCondition)

    /// The query text; `||` inside `&&` and lists under `!` are put in parentheses.
    var text: String {
        switch self {
        case .leaf(let text, _): text
        case .all(let operands, let compact):
            operands.map { if case .any = $0 { "(\($0.text))" } else { $0.text } }
                .joined(separator: compact ? "&&" : " && ")
        case .any(let operands, let compact): operands.map(\.text).joined(separator: compact ? "||" : " || ")
        case .not(let inner):
            switch inner {
            case .all, .any: "!(\(inner.text))"
            default: "!" + inner.text
            }
        case .group(let inner): "(\(inner.text))"
        }
    }

    /// Whether `item` passes: `true`, `false`, or `nil` for SQL's unknown.
    func holds(_ item: ScannedItem) -> Bool? {
        switch self {
        case .leaf(_, let holds): return holds(item)
        case .all(let operands, _):
            let values = operands.map { $0.holds(item) }
            if values.contains(false) { return false }
            return values.contains(nil) ? nil : true
        case .any(let operands, _):
            let values = operands.map { $0.holds(item) }
            if values.contains(true) { return true }
            return values.contains(nil) ? nil : false
        case .not(let inner): return inner.holds(item).map { !$0 }
        case .group(let inner): return inner.holds(item)
        }
    }

    // MARK: Leaves

    static func engagement(_ op: ComparisonOperator, _ value: Int, compact: Bool = false) -> ScanCondition {
        let text = compact ? "engagement\(op.rawValue)\(value)" : "engagement \(op.rawValue) \(value)"
        return .leaf(text) { compare($0.engagement, op, Double(value)) }
    }

    static func rating(_ op: ComparisonOperator, _ value: Int, compact: Bool = false) -> ScanCondition {
        let text = compact ? "rating\(op.rawValue)\(value)" : "rating \(op.rawValue) \(value)"
        return .leaf(text) { item in item.rating.map { compare($0, op, Double(value)) } }
    }

    /// `keywords == "word"`: some keyword is `word`.
    static func keyword(_ word: String) -> ScanCondition {
        .leaf(#"keywords == "\#(word)""#) { $0.keywords?.contains(word) ?? false }
    }

    /// `keywords != "WORD"cdt`: the item has keywords and none holds the word (any case); the
    /// heaviest comparison in SQL (a folded word match over `json_each`).
    static func noKeywordWord(_ word: String) -> ScanCondition {
        .leaf(#"keywords != "\#(word.uppercased())"cdt"#) { item in
            guard let keywords = item.keywords else { return false }
            return !keywords.contains { $0.lowercased().split(separator: " ").contains(Substring(word)) }
        }
    }

    /// `InRange(keywords, "low", "high")`: some keyword sorts between them.
    static func keywordInRange(_ low: String, _ high: String) -> ScanCondition {
        .leaf(#"InRange(keywords, "\#(low)", "\#(high)")"#) { item in
            item.keywords?.contains { low <= $0 && $0 <= high } ?? false
        }
    }

    /// `title == "prefix*"` (case-sensitive).
    static func titlePrefix(_ prefix: String) -> ScanCondition {
        .leaf(#"title == "\#(prefix)*""#) { $0.title.hasPrefix(prefix) }
    }

    /// `title == "prefix*"cd` on ASCII titles: the title-prefix index shortcut.
    static func foldedTitlePrefix(_ prefix: String) -> ScanCondition {
        .leaf(#"title == "\#(prefix)*"cd"#) { $0.title.lowercased().hasPrefix(prefix.lowercased()) }
    }

    private static func compare(_ left: Double, _ op: ComparisonOperator, _ right: Double) -> Bool {
        switch op {
        case .equal: left == right
        case .notEqual: left != right
        case .less: left < right
        case .greater: left > right
        case .lessOrEqual: left <= right
        case .greaterOrEqual: left >= right
        }
    }
}
