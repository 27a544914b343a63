/// The tokens of the query language, each with its 1-based column.
struct QueryToken: Hashable {
    enum Kind: Hashable {
        case identifier(String)
        case string(String, QueryModifiers)
        case number(Double)
        case time(TimeExpression)
        case op(ComparisonOperator)
        case and, or, not, open, close, comma, star, end
    }
    let kind: Kind
    let column: Int
}

/// Splits a query into tokens; a located error for anything else.
enum QueryLexer {
    static func tokens(_ text: String) throws(QuerySyntaxError) -> [QueryToken] {
        let characters = Array(text)
        var tokens: [QueryToken] = []
        var index = 0
        func fail(_ message: String, at position: Int) -> QuerySyntaxError {
            QuerySyntaxError(column: position + 1, message: message)
        }
        while index < characters.count {
            let character = characters[index]
            let start = index
            if character.isWhitespace {
                index += 1
                continue
            }
            func add(_ kind: QueryToken.Kind, length: Int) {
                tokens.append(QueryToken(kind: kind, column: start + 1))
                index += length
            }
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "(": add(.open, length: 1)
            case ")": add(.close, length: 1)
            case ",": add(.comma, length: 1)
            case "*": add(.star, length: 1)
            case "&" where next == "&": add(.and, length: 2)
            case "|" where next == "|": add(.or, length: 2)
            case "=" where next == "=": add(.op(.equal), length: 2)
            case "!" where next == "=": add(.op(.notEqual), length: 2)
            case "!": add(.not, length: 1)
            case "<" where next == "=": add(.op(.lessOrEqual), length: 2)
            case ">" where next == "=": add(.op(.greaterOrEqual), length: 2)
            case "<": add(.op(.less), length: 1)
            case ">": add(.op(.greater), length: 1)
            case "\"", "'":
                var value = ""
                index += 1
                while index < characters.count, characters[index] != character {
                    if characters[index] == "\\", index + 1 < characters.count {
                        // Keep `\*` escaped for the wildcard matcher; other escapes give the character.
                        if characters[index + 1] == "*" { value.append("\\") }
                        index += 1
                    }
                    value.append(characters[index])
                    index += 1
                }
                guard index < characters.count else { throw fail("unterminated string", at: start) }
                index += 1
                var modifiers = QueryModifiers()
                while index < characters.count, let modifier = Self.modifier(characters[index]) {
                    modifiers.insert(modifier)
                    index += 1
                }
                tokens.append(QueryToken(kind: .string(value, modifiers), column: start + 1))
            case "$":
                let (time, length) = try QueryTime.lex(characters, from: index)
                add(.time(time), length: length)
            case _ where character.isNumber || (character == "-" && next?.isNumber == true) || character == ".":
                var end = index + 1
                while end < characters.count,
                    characters[end].isNumber || characters[end] == "." || characters[end] == "e"
                {
                    end += 1
                }
                guard let number = Double(String(characters[index..<end])), number.isFinite else {
                    throw fail("not a number: '\(String(characters[index..<end]))'", at: start)
                }
                add(.number(number), length: end - index)
            case _ where character.isLetter || character == "_":
                var end = index + 1
                while end < characters.count,
                    characters[end].isLetter || characters[end].isNumber || characters[end] == "_"
                        || characters[end] == "."
                {
                    end += 1
                }
                add(.identifier(String(characters[index..<end])), length: end - index)
            default:
                throw fail("unexpected '\(character)'", at: start)
            }
        }
        tokens.append(QueryToken(kind: .end, column: characters.count + 1))
        return tokens
    }

    private static func modifier(_ character: Character) -> QueryModifiers? {
        switch character {
        case "c": .caseInsensitive
        case "d": .diacriticInsensitive
        case "w": .wordBased
        case "t": .tokenized
        default: nil
        }
    }
}
