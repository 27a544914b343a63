/// A problem in an `apple-app-site-association` file that leaves the rest of it usable.
///
/// The parser records the issue, skips or ignores the offending part as ``kind`` describes, and
/// goes on; `searchlight validate` shows these to site owners.
package struct AppSiteAssociationIssue: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is and what the parser did about it.
    package enum Kind: Sendable, Equatable, Hashable {
        /// A UTF-8 byte order mark starts the file; it was skipped. Apple's parser may not be as lenient.
        case byteOrderMark
        /// A key appears twice in one object; the last value is used.
        case duplicateKey
        /// A key this format does not define; it is ignored.
        case unknownKey
        /// `applinks.apps` is not an empty array. The key is legacy (iOS 12 and earlier) and ignored.
        case deprecatedApps
        /// A value has the wrong JSON type. The issue's reason says what was skipped.
        case wrongType
        /// An app ID is not in `TEAMID.bundle.identifier` form; it is kept, but no app can claim it.
        case invalidAppID
        /// `appID` holds an array (Apple documents one string; several go in `appIDs`); it was accepted.
        case appIDArray
        /// Both `appIDs` and `appID` are present and disagree; `appIDs` is used, as iOS 13 and later do.
        case conflictingAppIDs
        /// A `details` entry names no app (`appIDs`/`appID` missing or empty); the entry is skipped.
        case missingAppIDs
        /// A `details` entry has neither `components` nor `paths`, so it matches nothing.
        case noRules
        /// A `details` entry has both `components` and `paths`; `paths` is ignored (as iOS 13 and later do).
        case pathsIgnored
        /// A pattern cannot be compiled (unterminated or unknown `$(variable)`, too long); its rule is skipped.
        case invalidPattern
        /// A pattern is valid but can never match (a non-ASCII character in a percent-encoded pattern, a
        /// path pattern that does not start with `/`); it is kept as written.
        case unreachablePattern
        /// A `substitutionVariables` entry is malformed; the variable or value is skipped.
        case invalidVariable
        /// A size or count limit was reached; the rest of that part of the file is ignored.
        case limitExceeded
        /// `applinks.details` is an empty array: the file links no app.
        case emptyDetails
    }

    /// What kind of problem it is.
    package var kind: Kind
    /// Where it is in the JSON structure, for example `applinks.details[0].components[2]["/"]`.
    package var location: String
    /// A sentence saying what is wrong and what the parser did.
    package var reason: String

    /// Creates an issue.
    package init(kind: Kind, location: String, reason: String) {
        self.kind = kind
        self.location = location
        self.reason = reason
    }

    /// `location: reason`, or the reason alone for whole-file issues.
    package var description: String {
        location.isEmpty ? reason : "\(location): \(reason)"
    }
}
