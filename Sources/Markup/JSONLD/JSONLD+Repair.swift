extension JSONLD {
    /// A block's text after the repairs made on the text itself (the parser's leniencies do the rest), with the
    /// notes saying what was done and a way back to offsets in the text as written.
    ///
    /// Edge repairs overwrite what they remove with spaces instead of deleting it, so every byte keeps its offset
    /// and line, and a later parse error needs no mapping. Only entity decoding changes the length; it keeps
    /// checkpoints to map offsets back.
    struct RepairedText {
        /// The repaired bytes.
        var bytes: [UInt8]
        /// What was repaired, in order.
        var repairs: [String] = []
        /// For decoded text: `(offset in bytes, offset in the original)` at the start and after each entity, in
        /// increasing order. Empty when offsets are unchanged.
        var checkpoints: [(repaired: Int, original: Int)] = []

        /// The original bytes with the edge repairs made.
        init(repairing original: [UInt8]) {
            bytes = original
            repairEdges()
            blankCommentsOutsideStrings()
        }

        /// The offset in the original text that `offset` in `bytes` came from.
        func originalOffset(_ offset: Int) -> Int {
            guard let first = checkpoints.first, offset >= first.repaired else { return offset }
            // The last checkpoint at or before `offset`, by binary search (checkpoints are sorted both ways).
            var low = 0
            var high = checkpoints.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if checkpoints[middle].repaired <= offset { low = middle } else { high = middle }
            }
            return checkpoints[low].original + (offset - checkpoints[low].repaired)
        }

        /// Adds `note` unless it is already there (one wrapper kind may be removed at both ends).
        mutating func record(_ note: String) {
            if !repairs.contains(note) { repairs.append(note) }
        }

        /// Removes what wraps the JSON at either end: a byte order mark, `<!--`/`-->`, `<![CDATA[`/`]]>` (also in
        /// the `//<![CDATA[` and `/* <![CDATA[ */` script styles and `//-->`), and trailing `;`.
        mutating func repairEdges() {
            var lower = 0
            var upper = bytes.count
            // Wrappers nest a few deep at most (`<!--//<![CDATA[`); a fixed number of rounds keeps hostile input
            // such as `;-->;-->;-->…` from costing one scan per round.
            for _ in 0..<8 {
                while lower < upper, Byte.isWhitespace(bytes[lower]) { lower += 1 }
                while upper > lower, Byte.isWhitespace(bytes[upper - 1]) { upper -= 1 }
                if let (end, note) = leadingWrapper(from: lower, to: upper) {
                    blank(lower..<end, note)
                    lower = end
                } else if let (start, note) = trailingWrapper(from: lower, to: upper) {
                    blank(start..<upper, note)
                    upper = start
                } else {
                    return
                }
            }
        }

        /// Blanks comments that sit between JSON tokens rather than around the whole block:
        /// `<!-- a note -->` before the object, `"a": 1, // a remark` at a line's end, `/* … */`
        /// anywhere. Text inside strings is never touched (a `//` there is part of a URL).
        mutating func blankCommentsOutsideStrings() {
            var index = 0
            var inString = false
            // Once a search for "-->" has failed, none can succeed later: searching again for every
            // further "<!--" would make hostile input quadratic.
            var noCommentClose = false
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == Byte.backslash {
                        index += 2
                        continue
                    }
                    if byte == Byte.quote { inString = false }
                    index += 1
                    continue
                }
                if byte == Byte.quote {
                    inString = true
                    index += 1
                } else if byte != Self.lessThan && byte != Self.slash {
                    // The common case, kept cheap: only '<' and '/' can start a comment.
                    index += 1
                } else if matches("<!--", at: index, end: bytes.count) {
                    let close = noCommentClose ? nil : find("-->", in: (index + 4)..<bytes.count)
                    if close == nil { noCommentClose = true }
                    let end = close.map { $0 + 3 } ?? (index + 4)
                    blank(index..<end, "removed HTML comment")
                    index = end
                } else if matches("//", at: index, end: bytes.count) {
                    var end = index
                    while end < bytes.count, !Self.isLineBreak(bytes[end]) { end += 1 }
                    blank(index..<end, "removed JavaScript comment")
                    index = end
                } else if matches("/*", at: index, end: bytes.count) {
                    let end = find("*/", in: (index + 2)..<bytes.count).map { $0 + 2 } ?? bytes.count
                    blank(index..<end, "removed JavaScript comment")
                    index = end
                } else {
                    index += 1
                }
            }
        }

        /// Overwrites `range` with spaces, keeping offsets and line breaks, and records `note`.
        private mutating func blank(_ range: Range<Int>, _ note: String) {
            for index in range where !Byte.isWhitespace(bytes[index]) {
                bytes[index] = Byte.space
            }
            record(note)
        }

        /// The end of a wrapper that starts at `lower`, and its note.
        private func leadingWrapper(from lower: Int, to upper: Int) -> (Int, String)? {
            if matches("\u{FEFF}", at: lower, end: upper) { return (lower + 3, "removed byte order mark") }
            if matches("<!--", at: lower, end: upper) {
                // `<!-- a note -->` ahead of the JSON goes whole; `<!-- {…} -->` wraps it, and only
                // the opener goes here (the closer is a trailing wrapper).
                if let close = find("-->", in: (lower + 4)..<upper),
                    !bytes[(lower + 4)..<close].contains(where: {
                        $0 == Byte.openBrace || $0 == Byte.openBracket
                    })
                {
                    return (close + 3, "removed HTML comment")
                }
                return (lower + 4, Self.commentNote)
            }
            if matches("<![CDATA[", at: lower, end: upper) { return (lower + 9, Self.cdataNote) }
            if matches("//", at: lower, end: upper) {
                // A script-style line comment (`//<![CDATA[`) runs to the end of its line.
                var end = lower
                while end < upper, !Self.isLineBreak(bytes[end]) { end += 1 }
                return (end, note(forComment: lower..<end))
            }
            if matches("/*", at: lower, end: upper), let close = find("*/", in: (lower + 2)..<upper) {
                return (close + 2, note(forComment: lower..<(close + 2)))
            }
            return nil
        }

        /// The start of a wrapper that ends at `upper`, and its note.
        private func trailingWrapper(from lower: Int, to upper: Int) -> (Int, String)? {
            var lineStart = upper
            while lineStart > lower, !Self.isLineBreak(bytes[lineStart - 1]) { lineStart -= 1 }
            while lineStart < upper, Byte.isWhitespace(bytes[lineStart]) { lineStart += 1 }
            // A last line that is only a `//` comment (`//]]>`, `//-->`); one holding `"` or `}` may be the end of a
            // string with a raw line break in it, so it is left to the parser.
            if matches("//", at: lineStart, end: upper),
                !bytes[lineStart..<upper].contains(Byte.quote),
                !bytes[lineStart..<upper].contains(Byte.closeBrace)
            {
                return (lineStart, note(forComment: lineStart..<upper))
            }
            if matches("*/", at: upper - 2, end: upper), let open = findLast("/*", in: lower..<(upper - 2)) {
                return (open, note(forComment: open..<upper))
            }
            if matches("-->", at: upper - 3, end: upper) { return (upper - 3, Self.commentNote) }
            if matches("]]>", at: upper - 3, end: upper) { return (upper - 3, Self.cdataNote) }
            if upper > lower, bytes[upper - 1] == Byte.semicolon {
                return (upper - 1, "removed trailing ';'")
            }
            return nil
        }

        static let commentNote = "removed HTML comment wrapper"
        private static let lessThan = UInt8(ascii: "<")
        private static let slash = UInt8(ascii: "/")
        static let cdataNote = "removed CDATA wrapper"

        /// The note for a removed script comment, by what it wrapped.
        private func note(forComment range: Range<Int>) -> String {
            if find("CDATA", in: range) != nil || find("]]>", in: range) != nil { return Self.cdataNote }
            if find("--", in: range) != nil { return Self.commentNote }
            return "removed JavaScript comment"
        }

        /// Whether `byte` ends a line.
        private static func isLineBreak(_ byte: UInt8) -> Bool {
            byte == Byte.lineFeed || byte == Byte.carriageReturn
        }

        // The searches below are plain index loops over `bytes`: generic collection algorithms on slices are
        // unspecialized in debug builds and cost a hundred times more per byte, which hostile input would notice.

        /// Whether the UTF-8 of `needle` occurs in `bytes` at `index`, ending at or before `end`.
        func matches(_ needle: String, at index: Int, end: Int) -> Bool {
            Self.matches(Array(needle.utf8), in: bytes, at: index, end: end)
        }

        /// Whether `needle` occurs in `bytes` at `index`, ending at or before `end`.
        static func matches(_ needle: [UInt8], in bytes: [UInt8], at index: Int, end: Int) -> Bool {
            guard index >= 0, index + needle.count <= end else { return false }
            var offset = 0
            while offset < needle.count {
                if bytes[index + offset] != needle[offset] { return false }
                offset += 1
            }
            return true
        }

        /// The first index in `range` where `needle` starts and fits.
        private func find(_ needle: String, in range: Range<Int>) -> Int? {
            let needle = Array(needle.utf8)
            var index = range.lowerBound
            while index + needle.count <= range.upperBound {
                if Self.matches(needle, in: bytes, at: index, end: range.upperBound) { return index }
                index += 1
            }
            return nil
        }

        /// The last index in `range` where `needle` starts and fits.
        private func findLast(_ needle: String, in range: Range<Int>) -> Int? {
            let needle = Array(needle.utf8)
            var index = range.upperBound - needle.count
            while index >= range.lowerBound {
                if Self.matches(needle, in: bytes, at: index, end: range.upperBound) { return index }
                index -= 1
            }
            return nil
        }
    }
}
