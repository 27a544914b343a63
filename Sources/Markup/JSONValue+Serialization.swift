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
        case .number(let text): output += Self.isJSONNumber(text) ? text : "\"\(Self.escaped(text))\""
        case .string(let text): output += "\"\(Self.escaped(text))\""
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
                output += "\"\(Self.escaped(member.key))\":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` is a JSON number as written (so it can be emitted verbatim).
    private static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, (48...57).contains(first) else { return false }
        if first == 48, bytes.count > 1, (48...57).contains(bytes[bytes.startIndex + 1]) { return false }
        let allowed = Set("0123456789.eE+-".utf8)
        return bytes.allSatisfy(allowed.contains) && Double(text) != nil
    }
}
