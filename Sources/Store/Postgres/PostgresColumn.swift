/// A column of a batch sent to PostgreSQL as one array parameter and read back with `unnest`, so a
/// batch of rows is one statement (one round trip) instead of one per row.
///
/// PostgresNIO encodes arrays of non-optional values only, so a column that may hold NULL travels as two
/// arrays: the values (a placeholder where NULL) and whether each is present; the statement reads it as
/// `CASE WHEN present THEN value END`.
struct PostgresColumn<Value: Sendable>: Sendable {
    /// The values, with `placeholder` where a row has none.
    private(set) var values: [Value] = []
    /// Whether each row has a value.
    private(set) var present: [Bool] = []
    private let placeholder: Value

    init(placeholder: Value) {
        self.placeholder = placeholder
    }

    mutating func append(_ value: Value?) {
        values.append(value ?? placeholder)
        present.append(value != nil)
    }
}

extension PostgresColumn where Value == String {
    init() { self.init(placeholder: "") }
}

extension PostgresColumn where Value == Int {
    init() { self.init(placeholder: 0) }
}

extension PostgresColumn where Value == Double {
    init() { self.init(placeholder: 0) }
}
