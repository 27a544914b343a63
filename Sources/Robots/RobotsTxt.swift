/// A parsed robots.txt file (RFC 9309, https://www.rfc-editor.org/rfc/rfc9309).
///
/// Parsing never fails: lines that are not `key: value` records are skipped, records outside a
/// group are ignored, and only the first ``maxBytes`` are read, as the RFC allows.
package struct RobotsTxt: Sendable, Hashable {
    /// One `allow` or `disallow` rule.
    package struct Rule: Sendable, Hashable {
        /// Whether the rule allows.
        package var allow: Bool
        /// The path pattern, percent-encoding normalized (`*` and a final `$` are special).
        package var pattern: String
        /// The 1-based line of the rule in the file.
        package var line: Int
    }

    /// A group: the user agents it names and its rules.
    package struct Group: Sendable, Hashable {
        /// The product tokens of the group's `user-agent` lines, as written.
        package var userAgents: [String]
        /// The rules, in file order.
        package var rules: [Rule]
        /// The group's `crawl-delay` in seconds, if any (not part of RFC 9309; widely used).
        package var crawlDelay: Double?
    }

    /// The groups, in file order (groups naming the same agent are merged when matching).
    package private(set) var groups: [Group] = []
    /// The `sitemap` URLs, in file order.
    package private(set) var sitemaps: [String] = []

    /// RFC 9309 §2.5: crawlers must parse at least 500 KiB.
    package static let maxBytes = 500 * 1024

    /// The longest line read; the rest of a longer line is ignored. Google's parser keeps the same
    /// (a buffer of eight times the 2,083-byte URL limit of old browsers, less its terminating
    /// NUL), so a site tested against Googlebot reads the same here, and no single line costs
    /// unbounded work.
    package static let maxLineBytes = 2083 * 8 - 1

    /// Parses robots.txt bytes (UTF-8; a BOM is skipped; CR, LF and CRLF all end lines).
    package init(_ bytes: [UInt8]) {
        var content = bytes.prefix(Self.maxBytes)
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        var lineNumber = 0
        var current: Int?  // index of the group receiving rules
        var lastWasAgent = false
        for rawLine in Self.lines(content) {
            lineNumber += 1
            guard let (key, value) = Self.record(rawLine) else { continue }
            switch key {
            case .userAgent:
                if !lastWasAgent || current == nil {
                    groups.append(Group(userAgents: [], rules: []))
                    current = groups.count - 1
                }
                if let current { groups[current].userAgents.append(value) }
                lastWasAgent = true
            case .allow, .disallow:
                lastWasAgent = false
                guard let current else { continue }
                let pattern = PathPattern.normalizeRule(value)
                groups[current].rules.append(Rule(allow: key == .allow, pattern: pattern, line: lineNumber))
                // Google (whose rules Applebot follows when it has no group of its own) reads an
                // allowed `/dir/index.html` as also allowing `/dir/` itself.
                if key == .allow, let directory = Self.directoryOfIndexPage(pattern) {
                    groups[current].rules.append(Rule(allow: true, pattern: directory + "$", line: lineNumber))
                }
            case .crawlDelay:
                lastWasAgent = false
                if let current, let delay = Double(value), delay.isFinite, delay >= 0 {
                    groups[current].crawlDelay = delay
                }
            case .sitemap:
                // Sitemap records stand outside groups (RFC 9309 §2.3.5).
                if !value.isEmpty { sitemaps.append(value) }
            }
        }
    }

    /// `/dir/` for a pattern `/dir/index.html` or `/dir/index.htm`; `nil` otherwise.
    private static func directoryOfIndexPage(_ pattern: String) -> String? {
        for page in ["index.html", "index.htm"] where pattern.hasSuffix("/" + page) {
            return String(pattern.dropLast(page.count))
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmed() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[start...end])
    }
}
