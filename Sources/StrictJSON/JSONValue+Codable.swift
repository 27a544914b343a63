/// JSON values through `Codable`, for record types that hold arbitrary JSON and are also read and
/// written by Foundation's `JSONDecoder` and `JSONEncoder`.
///
/// A `Decoder` gives less than the parser: numbers come as `Double` (written as ``JSONNumber`` writes a
/// `Double`, so `1e2` becomes `100`), and a keyed container has no
/// order and one value per key, so an object's members come sorted by key. Encoding writes numbers
/// through `Double` too.
extension JSONValue: Codable {
    /// Decodes any JSON value the decoder holds.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self), value.isFinite {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let members = try container.decode([String: JSONValue].self)
            self = .object(members.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
        }
    }

    /// Encodes the value; an object's members in order (a keyed container may keep only the last of a
    /// repeated key).
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let number):
            var container = encoder.singleValueContainer()
            try container.encode(Double(number.literal) ?? .nan)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for member in members { try container.encode(member.value, forKey: MemberKey(member.key)) }
        }
    }

    /// An object member's key, for a keyed container.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ key: String) {
            stringValue = key
        }

        init?(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}
