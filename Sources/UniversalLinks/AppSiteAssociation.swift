internal import StrictJSON

/// A parsed `apple-app-site-association` file: which apps a host links, and which of its URLs open
/// in them as universal links.
///
/// Pure: no I/O. The caller fetches `https://HOST/.well-known/apple-app-site-association` (https, no
/// redirects, at most 128 KB, as Apple's CDN does) and passes the body; ``evaluate(_:)`` then says
/// which apps a URL of that host opens in.
///
/// Matching follows Apple's `applinks` reference:
/// - `details` are taken in file order; each names apps (`appIDs`, or legacy `appID`) and has rules,
///   either `components` (iOS 13+) or legacy `paths`. When both are present `components` is used.
/// - Within an entry the rules are tried in order and the first that matches decides: an excluding
///   rule (`"exclude": true`, a `NOT ` path) means the entry's apps do not open the URL; otherwise they
///   do. No matching rule means they do not.
/// - A `components` rule matches when each of its `/` (path), `?` (query) and `#` (fragment) patterns
///   matches; a missing one matches anything. Legacy `paths` look at the path only.
/// - Patterns: `*` is zero or more characters, `?` exactly one, `?*` one or more, `$(name)` any value
///   of a substitution variable (predefined `alpha`, `upper`, `lower`, `alnum`, `digit`, `xdigit`,
///   `region`, `lang`, or the file's `applinks.substitutionVariables`). A pattern covers the whole
///   component: `/buy/*` matches `/buy/` and `/buy/a/b`, not `/buy`.
/// - `caseSensitive` and `percentEncoded` come from the rule, else the entry's `defaults`, else the
///   file's `applinks.defaults`, else `true`. ``AppLinksRule/percentEncoded`` explains how that key is read.
package struct AppSiteAssociation: Sendable {
    /// Bounds on the work one file may cause. The defaults fit every real file seen so far.
    package struct Limits: Sendable {
        /// Largest body accepted, in bytes (Apple's CDN: 128 KB).
        package var maximumBytes = 131_072
        /// Deepest JSON nesting accepted (a real file needs 6).
        package var maximumDepth = 32
        /// Most rules (`components` entries plus `paths` strings) kept from the whole file.
        package var maximumRules = 4_096
        /// Longest pattern, in characters (Unicode scalars).
        package var maximumPatternLength = 1_024
        /// Most automaton nodes one pattern may compile to (a `$(lang)` takes about 1,300).
        package var maximumPatternNodes = 16_384
        /// Most automaton nodes the whole file may compile to.
        package var maximumTotalNodes = 262_144
        /// Most values kept for one custom substitution variable.
        package var maximumVariableValues = 1_024
        /// Longest URL ``AppSiteAssociation/evaluate(_:)`` looks at, in UTF-8 bytes.
        package var maximumURLLength = 8_192
        /// Most matching steps one ``AppSiteAssociation/evaluate(_:)`` call may take.
        package var maximumMatchSteps = 2_000_000

        /// The default limits.
        package init() {}
    }

    /// The usable `applinks.details` entries, in file order. Entries that name no app are left out
    /// (with an issue); an entry whose rules were all rejected stays, with no rules.
    package private(set) var details: [AppLinksDetail]
    /// Every non-fatal problem found, in file order.
    package private(set) var issues: [AppSiteAssociationIssue]
    /// The limits the file was read with; ``evaluate(_:)`` uses them too.
    package let limits: Limits

    /// Parses and checks an `apple-app-site-association` body.
    ///
    /// - Throws: ``AppSiteAssociationError`` when the file cannot be used at all: empty, too large,
    ///   signed (PKCS#7), not UTF-8, not JSON (with line and column), top level not an object, no
    ///   `applinks`, or `applinks.details` missing or not an array.
    package init(bytes: [UInt8], limits: Limits = Limits()) throws(AppSiteAssociationError) {
        self.limits = limits
        var issues: [AppSiteAssociationIssue] = []
        let start = try Self.preflight(bytes, limits: limits, issues: &issues)
        let root: JSONValue
        do {
            // A lone surrogate escape reads as U+FFFD, as this diagnosis always did (not an error).
            let options = JSONParser.Options(
                maximumDepth: limits.maximumDepth, maximumBytes: limits.maximumBytes, replacesLoneSurrogates: true)
            root = try JSONParser.parse(bytes, from: start, options: options)
        } catch {
            throw .at(error.offset, in: bytes, kind: .invalidJSON, reason: "not valid JSON: \(error.reason)")
        }
        var decoder = AssociationDecoder(limits: limits)
        details = try decoder.decode(root)
        self.issues = issues + decoder.issues
    }

    /// Parses a body given as text (tests, `validate` on a saved file).
    package init(_ text: String, limits: Limits = Limits()) throws(AppSiteAssociationError) {
        try self.init(bytes: Array(text.utf8), limits: limits)
    }

    /// Checks the raw bytes before JSON parsing; returns the offset where the JSON starts.
    private static func preflight(
        _ bytes: [UInt8], limits: Limits, issues: inout [AppSiteAssociationIssue]
    ) throws(AppSiteAssociationError) -> Int {
        guard bytes.count <= limits.maximumBytes else {
            throw AppSiteAssociationError(
                kind: .tooLarge,
                reason:
                    "the file is \(bytes.count) bytes, over the \(limits.maximumBytes)-byte limit Apple's CDN applies")
        }
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw AppSiteAssociationError(kind: .empty, reason: "the file is empty")
        }
        // DER/BER: a CMS ContentInfo is a SEQUENCE (0x30) whose length byte is 0x80 (indefinite, as
        // `openssl smime -sign` writes) or 0x81...0x84 (long form). PEM armour says so in words.
        if bytes.count >= 2, bytes[0] == 0x30, (0x80...0x84).contains(bytes[1]) {
            throw AppSiteAssociationError(
                kind: .signed,
                reason:
                    "the file is signed (PKCS#7/CMS), the iOS 8 format; serve the JSON unsigned with Content-Type application/json"
            )
        }
        if bytes.starts(with: Array("-----BEGIN".utf8)) {
            throw AppSiteAssociationError(
                kind: .signed,
                reason: "the file is PEM-armoured (signed or certificate data), not JSON; serve the JSON unsigned")
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw AppSiteAssociationError(
                kind: .notUTF8, reason: "the file is UTF-16 (it starts with a byte order mark); serve it as UTF-8")
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            issues.append(
                AppSiteAssociationIssue(
                    kind: .byteOrderMark, location: "",
                    reason:
                        "the file starts with a UTF-8 byte order mark, which JSON forbids (RFC 8259 §8.1); it was skipped"
                ))
            start = 3
        }
        if let invalid = firstInvalidUTF8Offset(bytes) {
            throw .at(
                invalid, in: bytes, kind: .notUTF8,
                reason: "invalid UTF-8 byte 0x\(String(bytes[invalid], radix: 16, uppercase: true))")
        }
        return start
    }

    /// The offset of the first byte that is not part of a valid UTF-8 sequence, or nil.
    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
