/// Why an `apple-app-site-association` file cannot be used for universal links at all.
///
/// Thrown by ``AppSiteAssociation/init(bytes:limits:)``. Problems that leave part of the file usable
/// (a bad rule, an unknown key) are ``AppSiteAssociationIssue``s instead.
package struct AppSiteAssociationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for callers that react differently to each.
    package enum Kind: Sendable, Equatable, Hashable {
        /// The body is empty or only white space.
        case empty
        /// The body is larger than ``AppSiteAssociation/Limits/maximumBytes``.
        case tooLarge
        /// The body is a PKCS#7 (CMS) signed file, the iOS 8 format; it must now be served unsigned.
        case signed
        /// The body is not UTF-8 (for example UTF-16, or invalid byte sequences).
        case notUTF8
        /// The body is not well-formed JSON; ``line`` and ``column`` locate the error.
        case invalidJSON
        /// The JSON's top level is not an object.
        case notAnObject
        /// The top-level object has no `applinks` key, so it declares no universal links.
        case missingAppLinks
        /// `applinks` is not an object, or its `details` is missing or not an array.
        case invalidAppLinks
    }

    /// The kind of failure.
    package var kind: Kind
    /// A sentence saying what is wrong and, where there is one, how to fix it.
    package var reason: String
    /// The 1-based line of the problem, when it has a position in the text (JSON syntax, UTF-8).
    package var line: Int?
    /// The 1-based column (in Unicode scalars) of the problem, with ``line``.
    package var column: Int?
    /// Where in the JSON structure the problem is (`applinks.details`), for structural errors.
    package var location: String?

    /// Creates an error; `line`, `column` and `location` are left out when they do not apply.
    package init(kind: Kind, reason: String, line: Int? = nil, column: Int? = nil, location: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.line = line
        self.column = column
        self.location = location
    }

    /// `line 3, column 7: reason`, `applinks.details: reason`, or just the reason.
    package var description: String {
        if let line, let column { return "line \(line), column \(column): \(reason)" }
        if let location, !location.isEmpty { return "\(location): \(reason)" }
        return reason
    }

    /// An error located at a byte offset of `bytes`, converted to a 1-based line and column.
    static func at(_ offset: Int, in bytes: [UInt8], kind: Kind, reason: String) -> AppSiteAssociationError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Count scalars, not bytes: UTF-8 continuation bytes (10xxxxxx) do not start a column.
                column += 1
            }
        }
        return AppSiteAssociationError(kind: kind, reason: reason, line: line, column: column)
    }
}
