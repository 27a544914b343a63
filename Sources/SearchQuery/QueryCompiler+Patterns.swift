extension QueryCompiler {
    /// Whether `text` has an unescaped `*`.
    static func hasWildcard(_ text: String) -> Bool {
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                return true
            }
        }
        return false
    }

    /// `text` as a `LIKE` pattern (PostgreSQL's default escape, the backslash): `*` becomes `%`, and
    /// `\*`, `%`, `_` and `\` are literal.
    static func likePattern(_ text: String) -> String {
        var pattern = ""
        var escaped = false
        for character in text {
            if escaped {
                pattern += character == "*" ? "*" : likeLiteral(character)
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "*": pattern += "%"
            default: pattern += likeLiteral(character)
            }
        }
        return pattern
    }

    /// `character` matching itself in a `LIKE` pattern. A character is escaped by the first of its scalars:
    /// folding may remove the marks after it (`\` with U+0301 must not become a bare escape).
    private static func likeLiteral(_ character: Character) -> String {
        guard let first = character.unicodeScalars.first, "%_\\".unicodeScalars.contains(first) else {
            return String(character)
        }
        return "\\" + String(character)
    }

    /// `text` as a GLOB pattern: `*` stays a wildcard, `\*` and GLOB's own `?`, `[`, `]` are literal.
    static func globPattern(_ text: String) -> String {
        var pattern = ""
        var escaped = false
        for character in text {
            if escaped {
                pattern += character == "*" ? "[*]" : String(character)
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "?": pattern += "[?]"
            case "[": pattern += "[[]"
            case "]": pattern += "[]]"
            default: pattern.append(character)
            }
        }
        return pattern
    }
}
