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
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of the field named `name`, in order.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
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
        fields[fields.count - 1].value += " " + text
    }

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> Field { fields[position] }
}
