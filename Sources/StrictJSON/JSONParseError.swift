internal import ASCIIText

/// Why and where a JSON document was refused.
///
/// The parser names the problem (``Problem``) and the byte offset; ``reason`` words it for a program's
/// own messages (`unexpected '}', expected a value`). A reader that reports to people in its own terms,
/// as the JSON-LD reader does for page authors, words ``problem`` itself.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. Unless a case says otherwise, the error's ``offset`` is the byte that broke the
    /// grammar (the end of the input when it ended too soon).
    package enum Problem: Sendable, Hashable {
        /// Something other than a value where one must start.
        case expectedValue
        /// Something other than `"` where an object key must start.
        case expectedKey
        /// Something other than `:` after an object key.
        case expectedColon
        /// Something other than `,` or `}` after an object member.
        case expectedMemberEnd
        /// Something other than `,` or `]` after an array element.
        case expectedElementEnd
        /// Something other than white space after the value (or, with leniencies, the values).
        case trailingContent
        /// A word starting with `t`, `f` or `n` that is not `true`, `false` or `null`; the offset is the
        /// word's first letter.
        case invalidLiteral
        /// A number without a digit where the grammar needs one.
        case missingDigit(NumberPart)
        /// An integer part of several digits starting with `0`; the offset is the end of those digits.
        case leadingZeros
        /// A raw byte U+0000–U+001F inside a string.
        case controlCharacter
        /// A backslash followed by a character that is no escape; the offset is that character.
        case invalidEscape
        /// A `\u` not followed by four hexadecimal digits; `escape` is the offset of its backslash.
        case invalidUnicodeEscape(escape: Int)
        /// The input ended inside a string; `opening` is the offset of the string's opening quote.
        case unterminatedString(opening: Int)
        /// A `\u` escape of a lone UTF-16 surrogate; the offset is the escape's backslash.
        case loneSurrogate
        /// A string that is not well-formed UTF-8; the offset is the string's first byte after the quote.
        case invalidUTF8
        /// An array or object opened deeper than `limit` levels; the offset is its opening bracket.
        case tooDeep(limit: Int)
        /// An input longer than `limit` bytes; the offset is where parsing would have started.
        case tooLong(limit: Int)
    }

    /// The part of a number that lacks a digit.
    package enum NumberPart: Sendable, Hashable {
        /// The integer part, after a `-`.
        case integer
        /// The fraction, after the `.`.
        case fraction
        /// The exponent, after `e` or `E` and any sign.
        case exponent
    }

    /// What is wrong.
    package var problem: Problem
    /// The 0-based byte offset in the input where parsing stopped.
    package var offset: Int
    /// The byte at ``offset``, or `nil` at the end of the input.
    package var found: UInt8?

    /// An error at `offset`, where the input holds `found`.
    package init(_ problem: Problem, offset: Int, found: UInt8?) {
        self.problem = problem
        self.offset = offset
        self.found = found
    }

    /// What is wrong, naming the byte found and what was expected (`unexpected '}', expected a value`).
    package var reason: String {
        switch problem {
        case .expectedValue, .invalidLiteral: "unexpected \(foundText), expected a value"
        case .expectedKey: "unexpected \(foundText), expected a key in double quotes"
        case .expectedColon: "unexpected \(foundText), expected ':'"
        case .expectedMemberEnd: "unexpected \(foundText), expected ',' or '}'"
        case .expectedElementEnd: "unexpected \(foundText), expected ',' or ']'"
        case .trailingContent: "unexpected \(foundText) after the end of the JSON value"
        case .missingDigit(.integer): "invalid number, expected a digit"
        case .missingDigit(.fraction): "invalid number, expected a digit after '.'"
        case .missingDigit(.exponent): "invalid number, expected a digit in the exponent"
        case .leadingZeros: "invalid number, leading zeros are not allowed"
        case .controlCharacter: "control character U+00\(Self.hex(found ?? 0)) in a string (write it as an escape)"
        case .invalidEscape: "invalid escape \\\(foundText)"
        case .invalidUnicodeEscape: "invalid \\u escape, expected four hexadecimal digits"
        case .unterminatedString: "unexpected end of file inside a string"
        case .loneSurrogate: "\\u escape of a lone UTF-16 surrogate"
        case .invalidUTF8: "invalid UTF-8 in a string"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels"
        case .tooLong(let limit): "longer than \(limit) bytes"
        }
    }

    /// `byte N: reason`.
    package var description: String { "byte \(offset): \(reason)" }

    /// The byte found as a reader would name it: `'x'`, `byte 0x80`, or end of file.
    private var foundText: String {
        guard let found else { return "end of file" }
        return (0x21..<0x7F).contains(found) ? "'\(Character(Unicode.Scalar(found)))'" : "byte 0x\(Self.hex(found))"
    }

    /// Two upper-case hexadecimal digits.
    private static func hex(_ byte: UInt8) -> String {
        String(decoding: [Hex.digit(byte >> 4), Hex.digit(byte)], as: UTF8.self)
    }
}
