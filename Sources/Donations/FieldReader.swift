internal import PlainText
internal import StrictJSON

/// Why a record cannot be read, already naming the field (`attributeSet.keywords[0]: expected a string`).
struct FieldError: Error {
    var reason: String
}

/// Where a value sits in a record, written as the messages name it: `contentAttributeSet.keywords[2]`
/// (keys as they are, joined by dots; array elements by index).
struct FieldPath {
    private(set) var text = ""

    /// The document root.
    static let root = FieldPath()

    func member(_ key: String) -> FieldPath { FieldPath(text: text.isEmpty ? key : text + "." + key) }
    func element(_ index: Int) -> FieldPath { FieldPath(text: text + "[\(index)]") }

    /// A reason about the value at this path: `path: reason`, or the reason alone at the root.
    func error(_ reason: String) -> FieldError { FieldError(reason: text.isEmpty ? reason : "\(text): \(reason)") }
}

/// The conversions from JSON values to the record fields, with the messages the import reports.
///
/// Absent and `null` are the same for an optional field; a required field absent is "missing required
/// field", and `null` or another type is a type error. Booleans are strict (`1` is not `true`).
enum FieldReader {
    /// The value of the first member named `key`: a repeated key keeps its first value.
    static func first(_ key: String, in members: [JSONMember]) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// A required string: absent is "missing required field".
    static func requiredString(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError)
        -> String
    {
        guard let value else { throw container.error("missing required field '\(key)'") }
        guard case .string(let text) = value else { throw container.member(key).error("expected a string") }
        return text
    }

    static func string(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw container.member(key).error("expected a string")
        }
    }

    /// An optional string shown to people (a title, a description, a keyword): control characters removed
    /// (``PlainText/cleaned(_:)``), so no escape sequence is ever stored.
    static func text(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError) -> String? {
        try string(value, key, in: container).map(PlainText.cleaned)
    }

    /// An optional array of strings shown to people, each cleaned as ``text(_:_:in:)`` does.
    static func texts(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError) -> [String]? {
        try strings(value, key, in: container).map { $0.map(PlainText.cleaned) }
    }

    static func bool(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError) -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw container.member(key).error("expected true or false")
        }
    }

    static func double(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError) -> Double? {
        switch value {
        case nil, .null?: return nil
        case .number(let number)?: return try double(number, key, in: container)
        default: throw container.member(key).error("expected a number")
        }
    }

    static func double(_ number: JSONNumber, _ key: String, in container: FieldPath) throws(FieldError) -> Double {
        guard let double = number.doubleValue else { throw container.member(key).error("number out of range") }
        return double
    }

    /// A whole number as `JSONDecoder` reads one into `Int`: an integer literal exactly; any other
    /// literal through the nearest `Double`, which must be whole (so `4.0` and `1e2` are accepted,
    /// `4.5` is not); from 2^53 on, where a `Double` no longer tells, the literal's exact value.
    static func int(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError) -> Int? {
        switch value {
        case nil, .null?: return nil
        case .number(let number)?:
            let whole: Int?
            if number.isPlainInteger {
                whole = number.integerValue
            } else if let double = Double(number.literal), let exact = Int(exactly: double) {
                whole = double.magnitude < 0x1p53 ? exact : number.integerValue
            } else {
                whole = nil
            }
            guard let whole else { throw container.member(key).error("expected a whole number") }
            return whole
        default: throw container.member(key).error("expected a number")
        }
    }

    /// An optional array of strings; one of more than ``DonationValidation/maxListCount`` elements is refused
    /// before any element is read, so a long list costs no more than its bytes.
    static func strings(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError) -> [String]? {
        switch value {
        case nil, .null?: return nil
        case .array(let elements)?:
            try checkCount(elements.count, key, in: container)
            var result: [String] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case .string(let text) = element else {
                    throw container.member(key).element(index).error("expected a string")
                }
                result.append(text)
            }
            return result
        default: throw container.member(key).error("expected an array of strings")
        }
    }

    /// An optional object's members.
    static func object(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError)
        -> [JSONMember]?
    {
        switch value {
        case nil, .null?: return nil
        case .object(let members)?: return members
        default: throw container.member(key).error("expected an object")
        }
    }

    /// `userInfo`: an object of at most ``DonationValidation/maxListCount`` members (counted as written, before
    /// any value is read), each value in canonical form (``dictionary(_:at:)``).
    static func userInfo(_ value: JSONValue?, _ key: String, in container: FieldPath) throws(FieldError)
        -> [String: JSONValue]?
    {
        guard let members = try object(value, key, in: container) else { return nil }
        try checkCount(members.count, key, in: container)
        return try dictionary(members, at: container.member(key))
    }

    /// Refuses a list of more than ``DonationValidation/maxListCount`` entries.
    private static func checkCount(_ count: Int, _ key: String, in container: FieldPath) throws(FieldError) {
        let limit = DonationValidation.maxListCount
        guard count <= limit else { throw container.member(key).error("more than \(limit) entries") }
    }

    /// An object's members by key, each value in canonical form: a number as ``JSONNumber`` writes its
    /// `Double` (so `1e2` and `100.0` are both `100`, and one out of `Double`'s range is an error), an
    /// object's members sorted by key with the first value of a repeated key. That is all `JSONDecoder`
    /// keeps of a value, and what makes equal values equal (the store compares and hashes their text).
    /// The work is one visit per value and a sort per object, whatever the keys' length or the depth.
    static func dictionary(_ members: [JSONMember], at path: FieldPath) throws(FieldError) -> [String: JSONValue] {
        var trail = Trail(base: path)
        return try dictionary(members, trail: &trail)
    }

    /// Where the value being read sits below the object ``dictionary(_:at:)`` was given: its keys and
    /// indexes, written out only for a message (a path string built per value would copy every long key
    /// once per value below it).
    private struct Trail {
        enum Step {
            case key(String)
            case index(Int)
        }

        let base: FieldPath
        var steps: [Step] = []

        func error(_ reason: String) -> FieldError {
            var path = base
            for step in steps {
                switch step {
                case .key(let key): path = path.member(key)
                case .index(let index): path = path.element(index)
                }
            }
            return path.error(reason)
        }
    }

    private static func dictionary(
        _ members: [JSONMember], trail: inout Trail
    ) throws(FieldError) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(members.count)
        for member in members where result[member.key] == nil {
            trail.steps.append(.key(member.key))
            result[member.key] = try canonical(member.value, trail: &trail)
            trail.steps.removeLast()
        }
        return result
    }

    private static func canonical(_ value: JSONValue, trail: inout Trail) throws(FieldError) -> JSONValue {
        switch value {
        case .null, .bool, .string: return value
        case .number(let number):
            guard let double = number.doubleValue else { throw trail.error("number out of range") }
            return .number(JSONNumber(double))
        case .array(let elements):
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                trail.steps.append(.index(index))
                result.append(try canonical(element, trail: &trail))
                trail.steps.removeLast()
            }
            return .array(result)
        case .object(let members):
            let values = try dictionary(members, trail: &trail)
            return .object(values.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
        }
    }
}
