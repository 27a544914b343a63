internal import StrictJSON

extension ItemDecodingError {
    /// An error at the value being read; the readers of the enclosing objects and arrays add their
    /// part of the path as it propagates (``within(member:)``, ``within(element:)``), so a value read
    /// without error costs no path at all.
    init(_ reason: Reason) {
        self.init(path: "", reason: reason)
    }

    /// The error as seen from the object that holds it under `key`: `price` becomes `offers[1].price`
    /// one level up. A key that is not a plain name is quoted (`["a b"]`).
    func within(member key: String) -> ItemDecodingError {
        let isName =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
        var component = key
        if !isName {
            component = "[\""
            for character in key {
                if character == "\"" || character == "\\" { component.append("\\") }
                component.append(character)
            }
            component += "\"]"
        }
        let separator = path.isEmpty || path.hasPrefix("[") ? "" : "."
        return ItemDecodingError(path: component + separator + path, reason: reason)
    }

    /// The error as seen from the array that holds it at `index`.
    func within(element index: Int) -> ItemDecodingError {
        let separator = path.isEmpty || path.hasPrefix("[") ? "" : "."
        return ItemDecodingError(path: "[\(index)]" + separator + path, reason: reason)
    }
}

/// One JSON object of a stored item, its members looked up by key under the codec's rules: a key
/// that appears twice is an error, a key no property reads is ignored (a later version may add one).
struct ItemObject {
    private let members: [String: JSONValue]

    /// The object `value`; anything else is a type error.
    init(_ value: JSONValue) throws(ItemDecodingError) {
        guard case .object(let list) = value else {
            throw ItemDecodingError(.wrongType(expected: "an object", found: value.typeName))
        }
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(list.count)
        for member in list where members.updateValue(member.value, forKey: member.key) != nil {
            throw ItemDecodingError(.duplicateKey).within(member: member.key)
        }
        self.members = members
    }

    /// The member `key` read by `read`, or `nil` when the object has no such key. `null` is not
    /// absence: the encoder leaves an absent value out, so `null` is a type error of `read`.
    func optional<Value>(
        _ key: String, _ read: (JSONValue) throws(ItemDecodingError) -> Value
    ) throws(ItemDecodingError) -> Value? {
        guard let value = members[key] else { return nil }
        do {
            return try read(value)
        } catch {
            throw error.within(member: key)
        }
    }

    /// The member `key` read by `read`; its absence is ``ItemDecodingError/Reason/missingKey``.
    func required<Value>(
        _ key: String, _ read: (JSONValue) throws(ItemDecodingError) -> Value
    ) throws(ItemDecodingError) -> Value {
        guard let value = try optional(key, read) else {
            throw ItemDecodingError(.missingKey).within(member: key)
        }
        return value
    }
}

/// The conversions from JSON values to the item's property types, each strict: no string for a
/// number, no number for a boolean, no fraction for a count.
enum ItemValue {
    static func string(_ value: JSONValue) throws(ItemDecodingError) -> String {
        guard case .string(let text) = value else { throw mismatch(value, "a string") }
        return text
    }

    static func bool(_ value: JSONValue) throws(ItemDecodingError) -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(value, "true or false") }
        return flag
    }

    /// A finite number (the encoder writes ratings and coordinates as Swift prints them, which reads
    /// back as the same `Double`).
    static func double(_ value: JSONValue) throws(ItemDecodingError) -> Double {
        guard case .number(let number) = value else { throw mismatch(value, "a number") }
        guard let double = number.doubleValue else { throw ItemDecodingError(.unrepresentableNumber(number.literal)) }
        return double
    }

    /// A whole number in `Int`'s range, however written (`42`, `42.0`).
    static func integer(_ value: JSONValue) throws(ItemDecodingError) -> Int {
        guard case .number(let number) = value else { throw mismatch(value, "a number") }
        guard let integer = number.integerValue else {
            throw ItemDecodingError(.unrepresentableNumber(number.literal))
        }
        return integer
    }

    /// The case of `Kind` whose raw value the string is.
    static func enumeration<Kind: RawRepresentable<String>>(_ value: JSONValue) throws(ItemDecodingError) -> Kind {
        let text = try string(value)
        guard let kind = Kind(rawValue: text) else { throw ItemDecodingError(.unknownValue(text)) }
        return kind
    }

    /// An array, each element read by `element`.
    static func array<Element>(
        _ value: JSONValue, _ element: (JSONValue) throws(ItemDecodingError) -> Element
    ) throws(ItemDecodingError) -> [Element] {
        guard case .array(let values) = value else { throw mismatch(value, "an array") }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            do {
                result.append(try element(value))
            } catch {
                throw error.within(element: index)
            }
        }
        return result
    }

    /// An array of strings.
    static func strings(_ value: JSONValue) throws(ItemDecodingError) -> [String] {
        try array(value, string)
    }

    /// An object, read by `read`.
    static func object<Value>(
        _ value: JSONValue, _ read: (ItemObject) throws(ItemDecodingError) -> Value
    ) throws(ItemDecodingError) -> Value {
        try read(try ItemObject(value))
    }

    private static func mismatch(_ value: JSONValue, _ expected: String) -> ItemDecodingError {
        ItemDecodingError(.wrongType(expected: expected, found: value.typeName))
    }
}
