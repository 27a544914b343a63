import Foundation
import Store
import Testing

/// PostgreSQL's `searchlight_fold` and `searchlight_casefold` (migration `v3-search`) against the Swift
/// folding the SQLite store registers under the same names, character by character over the alphabets
/// the index's text is mostly written in (Latin, Greek, Cyrillic, their extensions and ligatures): they
/// must agree everywhere but the differences listed here, which Docs/postgres.md documents.
@Suite("Folding on PostgreSQL")
struct PostgresFoldTests {
    /// Every character of the blocks compared, one per line; a combining mark after an `a` (it never
    /// comes first in text), as is a Greek letter after `α` for the iota subscript.
    static let characters: [String] = {
        let blocks: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0xA0...0x36F, 0x370...0x3FF, 0x400...0x52F, 0x1E00...0x1FFF, 0xFB00...0xFB06,
        ]
        return blocks.flatMap { $0 }.compactMap { Unicode.Scalar($0) }.filter {
            $0.properties.generalCategory != .unassigned
        }
        .map { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: "a" + String(scalar)
            default: String(scalar)
            }
        } + ["\u{3B1}\u{345}", "\u{3B1}\u{313}\u{345}", "\u{391}\u{345}"]
    }()

    /// Characters where PostgreSQL's fold differs from Swift's (code points, hex): the Greek spacing
    /// accents `῍ ῎ ῏ ῝ ῞ ῟` (symbols, not letters), which Foundation keeps whole and PostgreSQL decomposes,
    /// keeping the breathing without the accent.
    static let foldDifferences: Set<String> = ["1fcd", "1fce", "1fcf", "1fdd", "1fde", "1fdf"]
    /// Characters where PostgreSQL's case fold differs from Swift's (code points, hex).
    static let caseFoldDifferences: Set<String> = []

    /// The characters where each PostgreSQL function differs from its Swift counterpart, both computed on
    /// one database.
    static func differences() async throws -> (fold: Set<String>, caseFold: Set<String>) {
        let database = try await TestDatabases.make()
        let rows: [[PostgresValue]]
        do {
            rows = try await database.rows(
                "SELECT s, searchlight_fold(s), searchlight_casefold(s) FROM regexp_split_to_table($1, chr(10)) AS s",
                [.text(characters.joined(separator: "\n"))])
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        #expect(rows.count == characters.count)
        var fold: Set<String> = []
        var caseFold: Set<String> = []
        for row in rows {
            guard case .text(let character) = row[0], case .text(let folded) = row[1],
                case .text(let caseFolded) = row[2]
            else { continue }
            let code = character.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            if folded != Store.fold(character) { fold.insert(code) }
            if caseFolded != character.folding(options: [.caseInsensitive], locale: nil) { caseFold.insert(code) }
        }
        return (fold, caseFold)
    }

    @Test("searchlight_fold agrees with Store.fold, searchlight_casefold with Foundation's case folding")
    func folds() async throws {
        let (fold, caseFold) = try await Self.differences()
        #expect(fold == Self.foldDifferences, "\(fold.sorted())")
        #expect(caseFold == Self.caseFoldDifferences, "\(caseFold.sorted())")
    }
}
