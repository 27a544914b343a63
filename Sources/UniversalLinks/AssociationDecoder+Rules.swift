internal import StrictJSON

extension AssociationDecoder {
    /// A pattern that failed to compile, and where it is.
    struct PatternFailure: Error {
        var path: JSONPath
        var reason: String
    }

    /// A `components` array. An entry with a wrongly typed value, or a pattern that does not compile,
    /// is an issue and skipped; the other rules keep their order.
    mutating func decodeComponents(_ value: JSONValue, at path: JSONPath, defaults: MatchOptions) -> [AppLinksRule] {
        guard case .array(let entries) = value else {
            record(
                .wrongType, at: path, "must be an array of objects, found \(value.typeName); the entry matches nothing")
            return []
        }
        var rules: [AppLinksRule] = []
        for (index, entry) in entries.enumerated() {
            guard reserveRule(at: path) else { break }
            if let rule = decodeComponent(entry, at: path.element(index), defaults: defaults) { rules.append(rule) }
        }
        return rules
    }

    private mutating func decodeComponent(_ value: JSONValue, at path: JSONPath, defaults: MatchOptions)
        -> AppLinksRule?
    {
        guard case .object(let members) = value else {
            record(.wrongType, at: path, "must be an object, found \(value.typeName); the rule is skipped")
            return nil
        }
        let known: Set = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]
        let component = fields(members, at: path, known: known)
        var isUsable = true
        let pathPattern = patternText(component["/"], at: path.member("/"), isUsable: &isUsable)
        let fragment = patternText(component["#"], at: path.member("#"), isUsable: &isUsable)
        let query = queryPattern(component["?"], at: path.member("?"), isUsable: &isUsable)
        let rejected = "the rule is skipped"
        let exclude = boolean(component["exclude"], at: path.member("exclude"), consequence: rejected)
        let caseSensitive = boolean(component["caseSensitive"], at: path.member("caseSensitive"), consequence: rejected)
        let encoded = boolean(component["percentEncoded"], at: path.member("percentEncoded"), consequence: rejected)
        isUsable =
            isUsable && (component["exclude"] == nil || exclude != nil)
            && (component["caseSensitive"] == nil || caseSensitive != nil)
            && (component["percentEncoded"] == nil || encoded != nil)
        var comment: String?
        switch component["comment"] {
        case .string(let text)?: comment = text
        case let other?:
            record(.wrongType, at: path.member("comment"), "must be a string, found \(other.typeName); ignored")
        case nil: break
        }
        guard isUsable else { return nil }
        let options = MatchOptions(
            caseSensitive: caseSensitive ?? defaults.caseSensitive, percentEncoded: encoded ?? defaults.percentEncoded)
        do throws(PatternFailure) {
            let compiledQuery: AppLinksRule.CompiledQuery? =
                switch query {
                case .whole(let text)?: .whole(try compile(text, at: path.member("?"), options, isPath: false))
                case .items(let items)?:
                    .items(
                        try items.map { item throws(PatternFailure) in
                            let itemPath = path.member("?").member(item.name)
                            return (
                                MatchText.pattern(item.name, options), try compile(item.pattern, at: itemPath, options)
                            )
                        })
                case nil: nil
                }
            return AppLinksRule(
                location: path.description, path: pathPattern, query: query, fragment: fragment,
                excludes: exclude ?? false, caseSensitive: options.caseSensitive,
                percentEncoded: options.percentEncoded,
                comment: comment,
                compiledPath: try pathPattern.map { text throws(PatternFailure) in
                    try compile(text, at: path.member("/"), options, isPath: true)
                },
                compiledQuery: compiledQuery,
                compiledFragment: try fragment.map { text throws(PatternFailure) in
                    try compile(text, at: path.member("#"), options)
                })
        } catch {
            record(.invalidPattern, at: error.path, "\(error.reason); \(rejected)")
            return nil
        }
    }

    /// A legacy `paths` array: strings, `NOT ` prefix to exclude, matched against the path only,
    /// case-sensitively and percent-encoded, with no substitution variables (they came with iOS 14).
    mutating func decodePaths(_ value: JSONValue, at path: JSONPath) -> [AppLinksRule] {
        guard case .array(let entries) = value else {
            record(
                .wrongType, at: path, "must be an array of strings, found \(value.typeName); the entry matches nothing")
            return []
        }
        var rules: [AppLinksRule] = []
        for (index, entry) in entries.enumerated() {
            guard reserveRule(at: path) else { break }
            let entryPath = path.element(index)
            guard case .string(let text) = entry else {
                record(.wrongType, at: entryPath, "must be a string, found \(entry.typeName); skipped")
                continue
            }
            let excludes = text.hasPrefix("NOT ")
            let source = excludes ? String(text.dropFirst(4)) : text
            do throws(PatternFailure) {
                let compiled = try compile(source, at: entryPath, MatchOptions(), variables: nil, isPath: true)
                rules.append(
                    AppLinksRule(
                        location: entryPath.description, path: source, query: nil, fragment: nil, excludes: excludes,
                        caseSensitive: true, percentEncoded: true, comment: nil, compiledPath: compiled,
                        compiledQuery: nil,
                        compiledFragment: nil))
            } catch {
                record(.invalidPattern, at: error.path, "\(error.reason); skipped")
            }
        }
        return rules
    }

    private mutating func reserveRule(at path: JSONPath) -> Bool {
        guard ruleCount < limits.maximumRules else {
            record(
                .limitExceeded, at: path, "the file has more than \(limits.maximumRules) rules; the rest are ignored")
            return false
        }
        ruleCount += 1
        return true
    }

    /// A pattern value: nil when absent, a string, or nil with `isUsable` cleared and an issue.
    private mutating func patternText(_ value: JSONValue?, at path: JSONPath, isUsable: inout Bool) -> String? {
        switch value {
        case nil: return nil
        case .string(let text)?: return text
        case let other?:
            record(.wrongType, at: path, "must be a string, found \(other.typeName); the rule is skipped")
            isUsable = false
            return nil
        }
    }

    /// `?`: a string pattern, or an object of query-item name → string pattern.
    private mutating func queryPattern(
        _ value: JSONValue?, at path: JSONPath, isUsable: inout Bool
    ) -> AppLinksRule.QueryPattern? {
        guard let value else { return nil }
        if case .object(let members) = value {
            // A repeated name keeps its last value, in its last place: the earlier place is left empty.
            var items: [AppLinksRule.QueryItemPattern?] = []
            var places: [String: Int] = [:]
            for member in members {
                guard case .string(let pattern) = member.value else {
                    record(
                        .wrongType, at: path.member(member.key),
                        "must be a string, found \(member.value.typeName); the rule is skipped")
                    isUsable = false
                    continue
                }
                if let existing = places[member.key] {
                    record(.duplicateKey, at: path.member(member.key), "appears more than once; the last value is used")
                    items[existing] = nil
                }
                places[member.key] = items.count
                items.append(AppLinksRule.QueryItemPattern(name: member.key, pattern: pattern))
            }
            return .items(items.compactMap { $0 })
        }
        return patternText(value, at: path, isUsable: &isUsable).map(AppLinksRule.QueryPattern.whole)
    }

    /// Compiles one pattern within the file's node budget, noting patterns that can never match.
    private mutating func compile(
        _ source: String, at path: JSONPath, _ options: MatchOptions, isPath: Bool = false
    ) throws(PatternFailure) -> GlobPattern {
        try compile(source, at: path, options, variables: variables, isPath: isPath)
    }

    private mutating func compile(
        _ source: String, at path: JSONPath, _ options: MatchOptions, variables: SubstitutionVariables?, isPath: Bool
    ) throws(PatternFailure) -> GlobPattern {
        let context = GlobPattern.Context(
            options: options, variables: variables, maximumLength: limits.maximumPatternLength,
            maximumNodes: min(limits.maximumPatternNodes, remainingNodes))
        let pattern: GlobPattern
        do {
            pattern = try GlobPattern(source, context)
        } catch {
            throw PatternFailure(path: path, reason: error.reason)
        }
        remainingNodes -= pattern.nodes.count
        if options.percentEncoded, source.unicodeScalars.contains(where: { !$0.isASCII }) {
            record(
                .unreachablePattern, at: path,
                "contains non-ASCII characters but is compared percent-encoded, so it never matches them; add \"percentEncoded\": false"
            )
        }
        if isPath, let first = source.unicodeScalars.first, !["/", "*", "?", "$"].contains(first) {
            record(.unreachablePattern, at: path, "does not start with \"/\", so it never matches a path")
        }
        return pattern
    }
}
