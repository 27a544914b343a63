internal import StrictJSON

/// Reading JSON-LD the way pages really write it.
///
/// Each `<script type="application/ld+json">` block is parsed on its own with `parse(_:startLine:)`: valid JSON as
/// written is taken as is; otherwise the usual breakage (comment or CDATA wrappers, a trailing `;`, trailing commas,
/// raw control characters in strings, a stray `}`, concatenated objects, HTML-entity-escaped JSON) is repaired and
/// every repair recorded; a block that still fails gives a located error. `entities(in:)` then flattens the blocks
/// into the list of top-level entities, and `isSchemaOrg(_:)` and `types(of:)` read their vocabulary.
package enum JSONLD {
    /// The strict parse of a block: RFC 8259 as written, up to 512 levels deep, any size. A lone surrogate
    /// escape becomes U+FFFD, as a browser's decoder makes it, rather than failing the block. Bad UTF-8 would
    /// too, but a block is a `String` and the repairs never split a character, so the parser skips that check.
    static let strictOptions = JSONParser.Options(
        maximumDepth: 512, maximumBytes: .max, replacesLoneSurrogates: true, replacesInvalidUTF8: true)

    /// The parse of repaired text: ``strictOptions`` with every leniency of the parser.
    static let lenientOptions: JSONParser.Options = {
        var options = strictOptions
        options.leniencies = .all
        return options
    }()

    /// Parses one script block's text.
    ///
    /// The strict parse is tried first, so valid JSON is never "repaired". When it fails, the text is repaired and
    /// parsed again with the parser's leniencies; if the text looks HTML-entity-escaped, the entities are decoded and
    /// that is tried too. Repairs keep every byte where it was (wrappers become spaces) or keep a map back to the
    /// original, so an error is always located in the text as written.
    ///
    /// - Parameters:
    ///   - text: the script element's text content.
    ///   - startLine: the 1-based page line on which `text` starts.
    /// - Returns: the block, with the repairs made, or the first problem located in the page: line
    ///   `startLine + (line within the block) - 1`, column within that line of the block.
    package static func parse(_ text: String, startLine: Int) -> Result<JSONLDBlock, JSONLDError> {
        // Most blocks are valid: parse them in place, and copy the bytes only for the repairs.
        var text = text
        let strict = text.withUTF8 { bytes in
            Result { () throws(JSONParseError) in try JSONParser.parse(bytes, options: strictOptions) }
        }
        let strictError: JSONParseError
        switch strict {
        case .success(let value): return .success(JSONLDBlock(value: value, line: startLine))
        case .failure(let error): strictError = error
        }
        let original = Array(text.utf8)
        if original.allSatisfy(Byte.isWhitespace) {
            return .failure(JSONLDError(line: startLine, column: nil, message: "the block is empty"))
        }

        // Report the strict failure unless a repaired attempt got further into the text: then the strict failure
        // was one the repairs fixed (a wrapper, an entity, a raw newline), and the later one is what is really left.
        var furthest = failure(for: strictError, in: original)
        if let block = attempt(RepairedText(repairing: original), startLine: startLine, furthest: &furthest) {
            return .success(block)
        }
        // Decoding entities would break JSON that merely has a `&quot;` inside a string, so it is the last resort,
        // for text that failed every other way.
        if RepairedText.looksEntityEscaped(original),
            let block = attempt(RepairedText(decodingEntitiesIn: original), startLine: startLine, furthest: &furthest)
        {
            return .success(block)
        }
        return .failure(locate(furthest, in: original, startLine: startLine))
    }

    /// Parses repaired text leniently; on failure, keeps in `furthest` whichever failure lies further into the
    /// original text.
    private static func attempt(_ text: RepairedText, startLine: Int, furthest: inout Failure) -> JSONLDBlock? {
        var used = JSONParser.LeniencyCounts()
        let parsed = text.bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(JSONParseError) in
                try JSONParser.parse(bytes, options: lenientOptions, counting: &used)
            }
        }
        switch parsed {
        case .success(let value):
            return JSONLDBlock(value: value, line: startLine, repairs: text.repairs + notes(for: used))
        case .failure(let error):
            // Worded from the text that was parsed, located in the text as written.
            let failure = failure(for: error, in: text.bytes)
            let offset = text.originalOffset(failure.offset)
            if offset > furthest.offset { furthest = Failure(offset: offset, message: failure.message) }
            return nil
        }
    }

    /// Human-readable notes for the leniencies the parser used.
    static func notes(for used: JSONParser.LeniencyCounts) -> [String] {
        var notes: [String] = []
        if used.concatenatedValues > 0 {
            notes.append("wrapped \(used.concatenatedValues) concatenated top-level values in an array")
        }
        if used.trailingCommas > 0 {
            notes.append("removed \(counted(used.trailingCommas, "trailing comma"))")
        }
        if used.controlCharacters > 0 {
            notes.append("escaped \(counted(used.controlCharacters, "control character")) in strings")
        }
        if used.invalidEscapes > 0 {
            notes.append("dropped the backslash of \(counted(used.invalidEscapes, "invalid escape"))")
        }
        if !used.strayClosers.isEmpty {
            notes.append("removed stray '\(used.strayClosers)' at end")
        }
        return notes
    }

    /// `"1 thing"`, `"3 things"`; `plural` for nouns not made plural with an `s`.
    static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(plural ?? noun + "s")"
    }
}
