/// Why and where a JSON document was refused.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the byte found and what was expected
    /// (`unexpected '}', expected a value`).
    public var reason: String
    /// The 0-based byte offset in the input where parsing stopped.
    public var offset: Int

    /// Creates an error.
    public init(reason: String, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `byte N: reason`.
    public var description: String { "byte \(offset): \(reason)" }
}
