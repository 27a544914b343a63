internal import ASCIIText

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
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let number): output.append(contentsOf: number.literal.utf8)
        case .string(let text): Self.appendQuoted(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.appendQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a JSON string: runs that need no escape are copied whole (this is on the
    /// publisher's path, a million items at a time).
    private static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let escapeLength: Int
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F {
                    escapeLength = 1
                } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] <= 0x9F {
                    // U+0080–U+009F, the C1 controls (0xC2 leads U+0080–U+00BF).
                    escapeLength = 2
                } else {
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                let scalar = escapeLength == 1 ? UInt32(byte) : UInt32(bytes[index + 1])
                appendEscape(of: scalar, to: &output)
                index += escapeLength
                runStart = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `\"`, `\\`, `\n`, `\r`, `\t`, or `\u00XX` (lower-case hex) for a control character.
    private static func appendEscape(of scalar: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch scalar {
        case 0x22: output.append(UInt8(ascii: "\""))
        case 0x5C: output.append(UInt8(ascii: "\\"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
            output.append(contentsOf: "u00".utf8)
            output.append(Hex.digit(UInt8(truncatingIfNeeded: scalar >> 4), lowercase: true))
            output.append(Hex.digit(UInt8(truncatingIfNeeded: scalar), lowercase: true))
        }
    }
}
