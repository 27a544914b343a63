import StrictJSON

extension JSONValue {
    /// A number written as `literal`, for expected values (`.number(literal: "12.50")`).
    static func number(literal: String) -> JSONValue {
        .number(JSONNumber(literal: literal))
    }
}
