/// Where a store lives (SPEC §1, §7): a SQLite file, or a PostgreSQL database named by a libpq-style URL.
///
/// The value comes from `--store`, else from the `SEARCHLIGHT_STORE` environment variable, else it is
/// ``defaultPath``. A value that starts with `postgres://` or `postgresql://` (any case) is a PostgreSQL URL
/// (``PostgresLocation``); any other URL scheme is refused, so a typo such as `postgress://` is not taken
/// for a file name; everything else is the path of a SQLite file.
package enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL database.
    case postgres(PostgresLocation)

    /// The store when neither `--store` nor the environment names one.
    package static let defaultPath = "./searchlight.sqlite"

    /// The environment variable that names the store when `--store` is not given.
    package static let environmentVariable = "SEARCHLIGHT_STORE"

    /// The location `option` names, else the one `SEARCHLIGHT_STORE` names (an empty variable counts as
    /// unset), else the default SQLite file.
    ///
    /// - Parameter environment: the process environment: `SEARCHLIGHT_STORE`, and `PGPASSWORD` for a
    ///   PostgreSQL URL without a password.
    /// - Throws: ``StoreLocationError`` for a malformed value, saying which source it came from.
    package init(option: String?, environment: [String: String]) throws(StoreLocationError) {
        if let option {
            self = try Self(parsing: option, environment: environment, source: .option)
        } else if let value = environment[Self.environmentVariable], !value.isEmpty {
            self = try Self(parsing: value, environment: environment, source: .environment)
        } else {
            self = .sqlite(path: Self.defaultPath)
        }
    }

    /// The location one value names.
    ///
    /// - Parameters:
    ///   - value: a path, or a `postgres://` / `postgresql://` URL.
    ///   - environment: `PGPASSWORD` is read from it for a URL without a password.
    ///   - source: where the value came from, named in errors.
    /// - Throws: ``StoreLocationError`` for an empty value, another URL scheme, or a malformed URL.
    package init(
        parsing value: String, environment: [String: String] = [:], source: StoreLocationError.Source = .option
    ) throws(StoreLocationError) {
        guard !value.isEmpty else { throw StoreLocationError(source: source, problem: .empty) }
        if let scheme = Self.urlScheme(of: value) {
            guard PostgresLocation.schemes.contains(scheme.lowercased()) else {
                throw StoreLocationError(source: source, problem: .unsupportedScheme(scheme))
            }
            do {
                self = .postgres(try PostgresLocation(url: value, environment: environment))
            } catch {
                throw StoreLocationError(source: source, problem: error)
            }
        } else {
            self = .sqlite(path: value)
        }
    }

    /// The SQLite path, or the PostgreSQL URL without its password: what messages may show.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.description
        }
    }

    /// The scheme of `value` when it starts like a URL (`scheme://`, RFC 3986 scheme characters), else nil.
    private static func urlScheme(of value: String) -> String? {
        guard let separator = value.range(of: "://") else { return nil }
        let scheme = value[..<separator.lowerBound]
        guard let first = scheme.unicodeScalars.first, isASCIILetter(first),
            scheme.unicodeScalars.allSatisfy({
                isASCIILetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            })
        else { return nil }
        return String(scheme)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
