/// Unicode white space (the `White_Space` property) read straight off valid UTF-8 bytes, and the
/// white-space collapsing every extracted title, description and keyword goes through.
///
/// The set is fixed: ASCII tab to carriage return and space, U+0085, U+00A0, U+1680, U+2000–U+200A,
/// U+2028, U+2029, U+202F, U+205F and U+3000 (`UTF8WhiteSpaceTests` checks it against
/// `Unicode.Scalar.Properties.isWhitespace` for every scalar). Reading bytes instead of `Character`s
/// keeps grapheme breaking and property look-ups out of the per-page work.
package enum UTF8WhiteSpace {
    /// The byte length of the white-space scalar at `index`, or `nil` when the scalar there is not
    /// white space. `bytes` is valid UTF-8 and `index` the start of a scalar.
    static func length(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return lead == 0x20 || (0x09...0x0D).contains(lead) ? 1 : nil }
        guard index + 1 < bytes.count else { return nil }
        let second = bytes[index + 1]
        switch lead {
        case 0xC2:
            return second == 0x85 || second == 0xA0 ? 2 : nil
        case 0xE1, 0xE2, 0xE3:
            guard index + 2 < bytes.count else { return nil }
            let third = bytes[index + 2]
            switch (lead, second) {
            case (0xE1, 0x9A): return third == 0x80 ? 3 : nil
            case (0xE2, 0x80):
                return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : nil
            case (0xE2, 0x81): return third == 0x9F ? 3 : nil
            case (0xE3, 0x80): return third == 0x80 ? 3 : nil
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The length in bytes of the UTF-8 sequence that starts with `lead` (the text is valid UTF-8).
    static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// Whether collapsing would change `bytes`: white space at either end, a run of more than one
    /// white-space scalar, or one that is not U+0020.
    static func needsCollapsing(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var afterSpace = true  // the start counts as a boundary: leading white space needs trimming
        while index < bytes.count {
            if let length = length(bytes, at: index) {
                if afterSpace || bytes[index] != 0x20 { return true }
                afterSpace = true
                index += length
            } else {
                afterSpace = false
                index += scalarLength(bytes[index])
            }
        }
        return afterSpace && !bytes.isEmpty
    }

    /// `bytes` with each white-space run turned into one U+0020 and the ends trimmed.
    static func collapse(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { output in
            var written = 0
            var pendingSpace = false
            var index = 0
            while index < bytes.count {
                if let length = length(bytes, at: index) {
                    pendingSpace = written > 0
                    index += length
                    continue
                }
                if pendingSpace {
                    output[written] = 0x20
                    written += 1
                    pendingSpace = false
                }
                let end = min(index + scalarLength(bytes[index]), bytes.count)
                while index < end {
                    output[written] = bytes[index]
                    written += 1
                    index += 1
                }
            }
            return written
        }
    }
}

extension String {
    /// The string with each run of Unicode white space turned into one space and the ends trimmed;
    /// the string itself when there is nothing to change (most titles and descriptions).
    package func collapsingWhitespace() -> String {
        var copy = self
        return copy.withUTF8 { bytes in
            UTF8WhiteSpace.needsCollapsing(bytes) ? UTF8WhiteSpace.collapse(bytes) : nil
        } ?? self
    }
}
