package import StrictJSON

/// One `<script type="application/ld+json">` block, parsed.
///
/// Blocks are parsed one by one, so a broken block costs only itself: its siblings on the page still come through.
package struct JSONLDBlock: Sendable, Hashable {
    /// The parsed block (after any repair), as written: a top-level array stays an array and `@graph` stays
    /// nested; `JSONLD.entities(in:)` flattens them.
    package let value: JSONValue
    /// The 1-based line of the page on which the block's text starts.
    package let line: Int
    /// What had to be repaired before the block parsed, in the order the repairs were made, human-readable
    /// (`"removed HTML comment wrapper"`, `"removed trailing ';'"`, `"escaped 3 control characters in strings"`).
    /// Empty for a block that is valid JSON as written.
    package let repairs: [String]

    /// A block with the given parts.
    package init(value: JSONValue, line: Int, repairs: [String] = []) {
        self.value = value
        self.line = line
        self.repairs = repairs
    }
}

/// A JSON-LD block that could not be parsed even after repair, located in the page.
package struct JSONLDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based page line of the first problem.
    package let line: Int
    /// The 1-based column of the first problem, counted in Unicode scalars from the start of that line of the block's
    /// text (on the block's first line, from where the text starts); `nil` when the block is empty.
    package let column: Int?
    /// What was wrong, naming what was expected and what was found (`"expected ',' or '}' after object member,
    /// found '\"'"`).
    package let message: String

    /// An error with the given parts.
    package init(line: Int, column: Int?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: message`.
    package var description: String {
        guard let column else { return "line \(line): \(message)" }
        return "line \(line), column \(column): \(message)"
    }
}
