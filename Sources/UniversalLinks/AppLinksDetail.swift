/// One usable entry of `applinks.details`: the apps it names and the rules that decide which URLs
/// they open.
package struct AppLinksDetail: Sendable {
    /// Which of Apple's two rule formats the entry uses.
    package enum Format: Sendable, Equatable, Hashable {
        /// `components` (iOS 13 and later): dictionaries matching path, query and fragment.
        case components
        /// Legacy `paths` (iOS 12 and earlier): path patterns, `NOT ` to exclude.
        case paths
        /// Neither key is present (or usable): the entry matches nothing.
        case none
    }

    /// Where the entry is in the file, for example `applinks.details[1]`.
    package var location: String
    /// The app identifiers (`TEAMID.bundle.identifier`), from `appIDs`, else `appID`; never empty.
    package var appIDs: [String]
    /// The rule format in use. When both keys are present, `components` wins, as on iOS 13 and later.
    package var format: Format
    /// The rules in file order; the first that matches a URL decides. Rules with errors are left out.
    package var rules: [AppLinksRule]
}

/// One rule of a details entry: a `components` dictionary, or one legacy `paths` string.
///
/// A rule matches a URL when every pattern it has matches; a missing pattern (nil) matches anything,
/// as Apple's default `*` does.
package struct AppLinksRule: Sendable {
    /// A `?` pattern: for the whole query, or per query item.
    package enum QueryPattern: Sendable, Equatable {
        /// A pattern for the whole query string (without the `?`).
        case whole(String)
        /// Query-item name → value pattern. Every item with that name must match; an absent item, or
        /// one without `=`, counts as present with the empty value (Apple's rule), so `?*` requires a
        /// non-empty value while `*` accepts an absent item.
        case items([QueryItemPattern])
    }

    /// One `"name": "pattern"` entry of a query dictionary.
    package struct QueryItemPattern: Sendable, Equatable {
        /// The query item's name, compared literally (no wildcards) in the rule's comparison form.
        package var name: String
        /// The pattern every value of that item must match.
        package var pattern: String
    }

    /// Where the rule is, for example `applinks.details[0].components[3]` or `applinks.details[0].paths[1]`.
    package var location: String
    /// The path pattern (`/`), or nil for "any path". For legacy `paths`, without its `NOT ` prefix.
    package var path: String?
    /// The query pattern (`?`), or nil for "any query". Legacy `paths` never look at the query.
    package var query: QueryPattern?
    /// The fragment pattern (`#`), or nil for "any fragment". Legacy `paths` never look at the fragment.
    package var fragment: String?
    /// Whether a match stops the app from opening the URL (`"exclude": true`, or a `NOT ` path).
    package var excludes: Bool
    /// Whether letters must match in case. From the rule, else the entry's then the file's `defaults`,
    /// else `true`; always `true` for legacy paths.
    package var caseSensitive: Bool
    /// Whether the patterns are written percent-encoded. Inherited like ``caseSensitive``; always `true`
    /// for legacy paths.
    ///
    /// Apple documents the key only as "whether URLs are percent-encoded"; WWDC20's "What's new in
    /// Universal Links" introduces `false` for writing patterns in plain Unicode. Read that way:
    /// - `true`: patterns are compared with the component as it travels, percent-encoded
    ///   (`/caf%C3%A9/*`); `%c3` and `%C3` are equal, and a raw non-ASCII character in the pattern never
    ///   matches (an ``AppSiteAssociationIssue/Kind/unreachablePattern`` issue says so).
    /// - `false`: the component is percent-decoded (as UTF-8) before matching, so `/café/*` matches
    ///   `/caf%C3%A9/menu`, and `%` in a pattern is a literal percent sign.
    package var percentEncoded: Bool
    /// The rule's `comment`, which the system ignores.
    package var comment: String?

    let compiledPath: GlobPattern?
    let compiledQuery: CompiledQuery?
    let compiledFragment: GlobPattern?

    enum CompiledQuery: Sendable {
        case whole(GlobPattern)
        case items([(name: String, pattern: GlobPattern)])
    }

    var options: MatchOptions {
        MatchOptions(caseSensitive: caseSensitive, percentEncoded: percentEncoded)
    }
}
