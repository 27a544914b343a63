/// One app that opens a URL as a universal link, and the rule that decided it.
package struct UniversalLinkMatch: Sendable, Equatable, Hashable {
    /// The app identifier, `TEAMID.bundle.identifier`.
    package var appID: String
    /// Where the deciding rule is, for example `applinks.details[0].components[1]`.
    package var rule: String
}

/// What ``AppSiteAssociation/evaluate(_:)`` found for one URL.
package struct UniversalLinkEvaluation: Sendable, Equatable {
    /// The apps that open the URL, in file order (the first is the one that wins when several are
    /// installed), once per details entry that accepts it.
    package var matches: [UniversalLinkMatch]
    /// False when the URL was longer than ``AppSiteAssociation/Limits/maximumURLLength`` or matching
    /// ran out of ``AppSiteAssociation/Limits/maximumMatchSteps``: the entries not yet decided then
    /// count as not matching, and ``matches`` holds only what was decided before.
    package var isComplete: Bool
}

extension AppSiteAssociation {
    /// Which apps open `url` as a universal link, with the deciding rule of each.
    ///
    /// `url` is an absolute URL of the host the file came from (`https://example.com/a?b#c`); the
    /// scheme and host are not checked here. A string without `scheme://` is read as a path with
    /// optional query and fragment. Each details entry is decided on its own: its rules are tried in
    /// order and the first that matches decides; an excluding rule only stops that entry's apps.
    package func evaluate(_ url: String) -> UniversalLinkEvaluation {
        guard url.utf8.count <= limits.maximumURLLength else {
            return UniversalLinkEvaluation(matches: [], isComplete: false)
        }
        var texts = URLTexts(url)
        var budget = limits.maximumMatchSteps
        var matches: [UniversalLinkMatch] = []
        for detail in details {
            for rule in detail.rules {
                guard let matched = rule.matches(&texts, budget: &budget) else {
                    return UniversalLinkEvaluation(matches: matches, isComplete: false)
                }
                guard matched else { continue }
                if !rule.excludes {
                    matches += detail.appIDs.map { UniversalLinkMatch(appID: $0, rule: rule.location) }
                }
                break
            }
        }
        return UniversalLinkEvaluation(matches: matches, isComplete: true)
    }

    /// The app IDs that open `url` as a universal link, in file order without repeats; empty when
    /// none does (or when ``evaluate(_:)`` could not finish).
    package func appIDs(matching url: String) -> [String] {
        var appIDs: [String] = []
        var seen: Set<String> = []
        for match in evaluate(url).matches where seen.insert(match.appID).inserted {
            appIDs.append(match.appID)
        }
        return appIDs
    }
}

extension AppLinksRule {
    /// Whether every pattern of the rule matches the URL; nil when the budget ran out.
    func matches(_ texts: inout URLTexts, budget: inout Int) -> Bool? {
        let url = texts.prepared(options)
        if let compiledPath {
            guard let matched = compiledPath.matches(url.path, budget: &budget) else { return nil }
            guard matched else { return false }
        }
        switch compiledQuery {
        case .whole(let pattern)?:
            guard let matched = pattern.matches(url.query, budget: &budget) else { return nil }
            guard matched else { return false }
        case .items(let items)?:
            for item in items {
                for value in url.values(named: item.name) {
                    guard let matched = item.pattern.matches(value, budget: &budget) else { return nil }
                    guard matched else { return false }
                }
            }
        case nil:
            break
        }
        if let compiledFragment {
            return compiledFragment.matches(url.fragment, budget: &budget)
        }
        return true
    }
}
