/// What robots directives allow for one page: `<meta name="robots">`,
/// `<meta name="applebot">` and the `X-Robots-Tag` header, combined (the most restrictive wins).
package struct RobotsDirectives: Sendable, Hashable {
    /// The page may be indexed (no `noindex`, `none`).
    package var index = true
    /// The page's links may be followed (no `nofollow`, `none`).
    package var follow = true
    /// A snippet may be shown (no `nosnippet`, `max-snippet:0`).
    package var snippet = true

    /// Everything allowed.
    package init() {}

    /// Applies one comma-separated directive list such as `"noindex, nofollow"`.
    /// Unknown tokens are ignored; `all` and `index` never undo an earlier restriction.
    package mutating func apply(_ list: String) {
        for rawToken in list.split(separator: ",") {
            let token = rawToken.lowercased().filter { !$0.isWhitespace }
            switch token {
            case "noindex": index = false
            case "nofollow": follow = false
            case "none":
                index = false
                follow = false
            case "nosnippet", "max-snippet:0": snippet = false
            default: continue
            }
        }
    }

    /// Applies an `X-Robots-Tag` header value, which may name a user agent first
    /// (`"applebot: noindex"`, `"googlebot: nofollow"`); values for other agents are ignored.
    package mutating func applyHeader(_ value: String, userAgentToken: String = "applebot") {
        // "name: directives" where name is not itself a directive (e.g. "max-snippet: 0" is a directive).
        if let colon = value.firstIndex(of: ":") {
            let agent = value[..<colon].trimmingSpaces().lowercased()
            let directiveNames: Set<String> = [
                "max-snippet", "max-image-preview", "max-video-preview", "unavailable_after",
            ]
            if !agent.isEmpty, !agent.contains(" "), !agent.contains(","), !directiveNames.contains(agent) {
                if agent == userAgentToken.lowercased() { apply(String(value[value.index(after: colon)...])) }
                return
            }
        }
        apply(value)
    }
}

extension Substring {
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}
