import Markup
import URLCanonical

/// Which URLs a page may put into an item (SPEC §2), decided on the WHATWG parse of the value,
/// so what is checked is what a browser would open: `JaVaScRiPt:`, leading spaces or control
/// characters and tabs or newlines inside the scheme (`java\tscript:`) all come out as `javascript`.
package enum URLPolicy: Sendable, Hashable {
    /// A web address (thumbnail, media, canonical, search action, link): `http` or `https` only.
    case web
    /// What an app opens (`app-argument`, `al:*:url`, `twitter:app:url:*`): an app's own scheme
    /// is fine, but never one of ``neverPublishedSchemes``.
    case deepLink

    /// Schemes no field ever publishes: they run script, embed or name local content, or only mean
    /// something inside one browser.
    package static let neverPublishedSchemes: Set<String> = ["javascript", "vbscript", "data", "file", "blob", "about"]

    /// The longest web URL kept, in UTF-8 bytes once resolved (the markup's own bound on URLs).
    package static let maxWebURLLength = PageExtractor.maxURLLength

    /// The outcome for one value.
    package enum Decision: Sendable, Hashable {
        /// Allowed; for ``URLPolicy/web`` the payload is the resolved URL as the WHATWG standard
        /// serializes it, for ``URLPolicy/deepLink`` the value as written.
        case accepted(String)
        /// Refused, and why.
        case refused(URLRefusal.Reason)
    }

    /// Decides about `value`, resolved against `base` when it is relative.
    /// - Parameters:
    ///   - value: The URL as the page wrote it.
    ///   - base: The page's base URL, or `nil` when the value must be absolute.
    package func decide(_ value: String, base: String?) -> Decision {
        let resolver = base.flatMap { WebURLResolver(base: $0) }
        if case .web = self {
            // The usual value (an http(s) URL, or a path on the page's site) is settled by the byte scan.
            let scanned =
                resolver.map { $0.scannedHref(resolving: value) } ?? WebURLResolver.scannedHref(absolute: value)
            if let href = scanned {
                guard href.utf8.count <= Self.maxWebURLLength else { return .refused(.tooLong(bytes: href.utf8.count)) }
                return .accepted(href)
            }
        }
        let baseURL = resolver?.base
        guard let url = WebURL(value, base: baseURL) else { return .refused(.notURL) }
        let scheme = url.scheme.lowercased()
        if Self.neverPublishedSchemes.contains(scheme) { return .refused(.neverPublishedScheme(scheme)) }
        switch self {
        case .deepLink:
            return .accepted(value)
        case .web:
            guard scheme == "http" || scheme == "https" else { return .refused(.notWebScheme(scheme)) }
            let href = url.href
            guard href.utf8.count <= Self.maxWebURLLength else { return .refused(.tooLong(bytes: href.utf8.count)) }
            return .accepted(href)
        }
    }

    /// `url`, taken as absolute, as this policy keeps it (see ``Decision/accepted(_:)``); `nil`
    /// when it is refused or relative.
    package func accepted(_ url: String) -> String? {
        guard case .accepted(let kept) = decide(url, base: nil) else { return nil }
        return kept
    }
}

/// A URL the mapping from markup to item refused: where it came from, what it said, and why.
package struct URLRefusal: Sendable, Hashable {
    /// Why a value was refused.
    package enum Reason: Sendable, Hashable {
        /// A scheme no field publishes (``URLPolicy/neverPublishedSchemes``), lower-case.
        case neverPublishedScheme(String)
        /// A web field with a scheme other than `http` or `https`, lower-case.
        case notWebScheme(String)
        /// Not a URL by the WHATWG standard, even resolved against the page.
        case notURL
        /// Longer than ``URLPolicy/maxWebURLLength`` bytes once resolved.
        case tooLong(bytes: Int)
    }

    /// The markup that carried the value: `og:image`, `schema.org image`, `app-argument`, ….
    package var source: String
    /// The value as written.
    package var value: String
    /// Why it was refused.
    package var reason: Reason
    /// The source line, when the markup has one.
    package var line: Int?

    /// Creates a refusal.
    package init(source: String, value: String, reason: Reason, line: Int? = nil) {
        self.source = source
        self.value = value
        self.reason = reason
        self.line = line
    }

    /// The most characters of the value a message shows: a `data:` URL can be megabytes.
    static let shownValueLength = 80

    /// The refusal for a person: source, line, value (shortened) and reason.
    package var message: String {
        var shown = ""
        shown.unicodeScalars.append(contentsOf: value.unicodeScalars.prefix(Self.shownValueLength))
        if value.unicodeScalars.count > Self.shownValueLength { shown += "…" }
        let place = line.map { " (line \($0))" } ?? ""
        return "\(source)\(place) \"\(shown)\" refused: \(reason.explanation)"
    }
}

extension URLRefusal.Reason {
    /// Why, for a person.
    package var explanation: String {
        switch self {
        case .neverPublishedScheme(let scheme):
            let why: String
            switch scheme {
            case "javascript", "vbscript": why = "it runs script"
            case "data": why = "it embeds content instead of pointing to it"
            case "file": why = "it names a file on the reader's own machine"
            case "blob": why = "it exists only inside the page that made it"
            default: why = "it is internal to a browser"
            }
            return "a \(scheme): URL is never published (\(why))"
        case .notWebScheme(let scheme):
            return "a \(scheme): URL where only http and https are allowed"
        case .notURL:
            return "not a URL"
        case .tooLong(let bytes):
            return "\(bytes) bytes once resolved; at most \(URLPolicy.maxWebURLLength) are kept"
        }
    }
}
