/// An ordered list of HTTP header fields.
///
/// Repeated fields (`Set-Cookie`, `Link`, `X-Robots-Tag`) are kept, each as its own
/// entry and in the order they arrived. Lookups are case-insensitive.
public struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as sent.
        public var name: String
        /// The field value with surrounding white space removed.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates a header list from fields, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates a header list from `(name, value)` pairs, in order.
    public init(arrayLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field named `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of the field named `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Field names are ASCII tokens (RFC 9110 §5.1): compare them byte by byte, ignoring
    /// ASCII case, without allocating lowercased copies.
    private static func namesMatch(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
        }
    }

    /// Appends a field, keeping any earlier one with the same name.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field.
    mutating func removeAll() {
        fields.removeAll(keepingCapacity: true)
    }

    /// Appends continuation text to the last field (obsolete line folding, RFC 9112 §5.2).
    mutating func appendToLastValue(_ text: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += fields[fields.count - 1].value.isEmpty ? text : " " + text
    }

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> Field { fields[position] }
}
