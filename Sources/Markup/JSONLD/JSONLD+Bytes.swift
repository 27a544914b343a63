extension JSONLD {
    /// The ASCII bytes JSON and its wrappers are made of, as constants so the repairs read like the grammar.
    enum Byte {
        static let tab: UInt8 = 0x09
        static let lineFeed: UInt8 = 0x0A
        static let carriageReturn: UInt8 = 0x0D
        static let space: UInt8 = 0x20
        static let quote: UInt8 = 0x22
        static let ampersand: UInt8 = 0x26
        static let semicolon: UInt8 = 0x3B
        static let openBracket: UInt8 = 0x5B
        static let backslash: UInt8 = 0x5C
        static let openBrace: UInt8 = 0x7B
        static let closeBrace: UInt8 = 0x7D

        /// Whether `byte` is white space in JSON's sense (space, tab, line feed, carriage return; nothing else).
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == space || byte == lineFeed || byte == carriageReturn || byte == tab
        }
    }
}
