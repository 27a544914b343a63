internal import PostgresNIO

/// A value bound to, or read from, a PostgreSQL statement: the neutral form the index modules use, so that
/// only this module sees PostgresNIO's types.
package enum PostgresValue: Sendable, Hashable {
    case null
    case text(String)
    case integer(Int64)
    case double(Double)
    case boolean(Bool)
}

extension PostgresStore {
    /// The rows `sql` returns, each as its columns' values in order; `arguments` are bound to `$1`, `$2`…
    /// in order, never written into the SQL.
    ///
    /// Columns of type `bigint`, `integer`, `smallint` read as ``PostgresValue/integer(_:)``, `double
    /// precision` and `real` as ``PostgresValue/double(_:)``, `boolean` as ``PostgresValue/boolean(_:)``, and
    /// `text` (and the other types PostgresNIO reads as a string: `varchar`, `name`, …) as
    /// ``PostgresValue/text(_:)``; a statement that returns another type (`bytea`, `tsvector`, …) should cast
    /// it to text.
    /// - Throws: ``StoreError`` when the statement fails or returns a column of a type it cannot read.
    package func rows(_ sql: String, _ arguments: [PostgresValue] = []) async throws(StoreError) -> [[PostgresValue]] {
        do {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: sql, binds: Self.bindings(arguments)), logger: logger)
            var result: [[PostgresValue]] = []
            for try await row in rows {
                result.append(try row.map(Self.value))
            }
            return result
        } catch {
            throw StoreError(path: location.description, message: PostgresFailureReason.describe(error, location))
        }
    }

    /// `values` bound to `$1`, `$2`… in order.
    static func bindings(_ values: [PostgresValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .text(let text): bindings.append(text)
            case .integer(let integer): bindings.append(integer)
            case .double(let double): bindings.append(double)
            case .boolean(let boolean): bindings.append(boolean)
            }
        }
        return bindings
    }

    static func value(_ cell: PostgresCell) throws -> PostgresValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
        case .float8, .float4: return .double(try cell.decode(Double.self))
        case .bool: return .boolean(try cell.decode(Bool.self))
        default: return .text(try cell.decode(String.self))
        }
    }
}
