extension JSONValue {
    /// A number for a writer's `value`, its text as ``JSONNumber`` writes a `Double` (`4`, `4.5`). NaN and
    /// the infinities, which JSON cannot write, become the strings `"nan"`, `"inf"` and `"-inf"`: a reader
    /// that expects a number refuses them instead of reading some other number.
    package static func number(_ value: Double) -> JSONValue {
        value.isFinite ? .number(JSONNumber(value)) : .string(String(value))
    }

    /// A number for a writer's `value`, in decimal.
    package static func number(_ value: Int) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// The value as compact JSON text (RFC 8259), members in their stored order, numbers as written.
    /// Strings are escaped minimally: quotes, backslashes and control characters (DEL and the C1 controls
    /// too, which JSON allows raw, so JSON printed on a terminal carries no control character of any
    /// kind); `/` and other non-ASCII characters stay as they are. Stores hold text written here, so the
    /// bytes for a value must not change.
    package func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let number): output += number.literal
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
    /// on the publisher's path, a million items at a time).
    private static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        // 0xC2 leads the UTF-8 of U+0080–U+00BF, among them the C1 controls.
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
}
