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
