extension JSONValue {
    /// The value as compact JSON text (RFC 8259), members in their stored order. Strings are
    /// escaped minimally: quotes, backslashes and control characters; `/` and non-ASCII stay as they are.
    public func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text):
            if Self.isJSONNumber(text) { output += text } else { Self.appendQuoted(text, to: &output) }
        case .string(let text): Self.appendQuoted(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.appendQuoted(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Appends `text` as a JSON string. Most strings need no escape: they are appended whole (this is
    /// on the publisher's path, a million items at a time). DEL and the C1 controls are escaped too (JSON
    /// allows them raw), so JSON printed on a terminal carries no control character of any kind.
    private static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        if !text.utf8.contains(where: {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2
        }) {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// Whether `text` is a JSON number as written (so it can be emitted verbatim).
    private static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, (48...57).contains(first) else { return false }
        if first == 48, let second = bytes.dropFirst().first, (48...57).contains(second) { return false }
        let allowed = bytes.allSatisfy { byte in
            (48...57).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        }
        return allowed && Double(text) != nil
    }
}
