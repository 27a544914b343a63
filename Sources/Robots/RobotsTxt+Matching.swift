extension RobotsTxt {
    /// Why a URL is allowed or not.
    package struct Decision: Sendable, Hashable {
        /// Whether the URL may be fetched.
        package var allowed: Bool
        /// The user agent of the group(s) that decided (`"*"` for the catch-all), or `nil` when
        /// no group applied.
        package var group: String?
        /// The rule that decided, or `nil` when none matched (allowed by default).
        package var rule: Rule?

        /// Creates a decision (for callers that decide without a file, e.g. an unreachable robots.txt).
        package init(allowed: Bool, group: String?, rule: Rule?) {
            self.allowed = allowed
            self.group = group
            self.rule = rule
        }
    }

    /// The product token of a user-agent string: its leading letters, `_` and `-`
    /// (`"Applebot/0.1 (+http://…)"` → `"Applebot"`).
    package static func productToken(of userAgent: String) -> String {
        String(userAgent.trimmed().prefix { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") })
    }

    /// Decides whether `url` (absolute, or a path) may be fetched by `userAgent`.
    ///
    /// Group choice (RFC 9309 §2.2.1): the groups naming the agent's product token, merged; else
    /// the `*` groups. For the `Applebot` token a `Googlebot` group is used before `*`, as Apple
    /// documents. Rules: the longest matching pattern wins, an allow wins a tie, `/robots.txt`
    /// is always allowed. Patterns and the URL's path are compared, and their lengths measured, in
    /// one percent-encoding normalized form (RFC 9309 §2.2.2), so a character matches whether either
    /// side writes it raw or escaped.
    package func decision(for url: String, userAgent: String = "Applebot") -> Decision {
        let path = PathPattern.normalizePath(PathPattern.pathAndQuery(of: url))
        if path == "/robots.txt" { return Decision(allowed: true, group: nil, rule: nil) }
        guard let (agent, matching) = applicableGroups(for: userAgent) else {
            return Decision(allowed: true, group: nil, rule: nil)
        }
        let rule = Self.decidingRule(matching.flatMap(\.rules), path: Array(path.utf8))
        return Decision(allowed: rule?.allow ?? true, group: agent, rule: rule)
    }

    /// The groups that apply to `userAgent` and the agent they name: the product token's
    /// groups, merged; for Applebot then Googlebot's; then `*`'s.
    private func applicableGroups(for userAgent: String) -> (agent: String, groups: [Group])? {
        let token = Self.productToken(of: userAgent).lowercased()
        var candidates = [token]
        if token == "applebot" { candidates.append("googlebot") }
        candidates.append("*")
        for candidate in candidates {
            let matching = groups.filter { group in group.userAgents.contains { Self.names($0, candidate) } }
            if !matching.isEmpty { return (candidate, matching) }
        }
        return nil
    }

    /// Whether a `user-agent` value names `token` (lowercased): its product token compared
    /// case-insensitively, `*` only as a value of its own.
    private static func names(_ value: String, _ token: String) -> Bool {
        if token == "*" { return value.trimmed() == "*" }
        return productToken(of: value).lowercased() == token
    }

    private static func decidingRule(_ rules: [Rule], path: [UInt8]) -> Rule? {
        var best: Rule?
        var bestLength = -1
        for rule in rules where !rule.pattern.isEmpty {
            let pattern = Array(rule.pattern.utf8)
            guard PathPattern.matches(path, pattern) else { continue }
            if pattern.count > bestLength || (pattern.count == bestLength && rule.allow && best?.allow == false) {
                best = rule
                bestLength = pattern.count
            }
        }
        return best
    }

    /// The crawl delay of the group that applies to `userAgent`, if it sets one.
    package func crawlDelay(userAgent: String = "Applebot") -> Double? {
        applicableGroups(for: userAgent)?.groups.lazy.compactMap(\.crawlDelay).first
    }
}
