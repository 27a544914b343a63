import Markup
package import StrictJSON

/// One verdict about a page's markup, with the reason.
package struct MarkupCheck: Sendable, Hashable, Codable {
    /// How the check came out.
    package enum Status: String, Sendable, Hashable, Codable, Comparable {
        /// Fine.
        case pass
        /// Works, but below Apple's recommendations.
        case warn
        /// Missing or broken.
        case fail

        package static func < (lhs: Status, rhs: Status) -> Bool {
            let order: [Status] = [.pass, .warn, .fail]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// A stable name: `title`, `description`, `image`, `deepLink`, `structuredData`, `indexing`, …;
    /// `url`, `links` and `rating` for what the mapping refused or doubted (``MappingFinding``).
    package var name: String
    /// The verdict.
    package var status: Status
    /// Why, for a person.
    package var message: String

    /// Creates a check.
    package init(name: String, status: Status, message: String) {
        self.name = name
        self.status = status
        self.message = message
    }
}

extension MarkupCheck {
    /// The check as JSON: `{"name", "status", "message"}`.
    package var jsonValue: JSONValue {
        .object([
            JSONMember("name", .string(name)), JSONMember("status", .string(status.rawValue)),
            JSONMember("message", .string(message)),
        ])
    }
}

extension AppResultEligibility {
    /// The verdict as JSON: `{"eligible", "missing"}`.
    package var jsonValue: JSONValue {
        .object([
            JSONMember("eligible", .bool(isEligible)), JSONMember("missing", .array(missing.map(JSONValue.string))),
        ])
    }
}

/// Whether a page can become an *App result*: a deep link, a title, a description, and no `noindex`.
package struct AppResultEligibility: Sendable, Hashable, Codable {
    /// Whether every condition holds.
    package var isEligible: Bool
    /// The conditions that fail, for a person; empty when eligible.
    package var missing: [String]
}

/// The offline checks of a page's markup and the App-result gate (SPEC §2).
package enum MarkupChecks {
    /// Apple's recommended limits, reported as warnings.
    package static let maxTitleLength = 90
    /// See ``maxTitleLength``.
    package static let maxDescriptionLength = 300
    /// See ``maxTitleLength``.
    package static let recommendedKeywords = 3...5
    /// See ``maxTitleLength``.
    package static let minThumbnailSize = 180

    /// The App-result gate, explained.
    package static func appResult(page: PageMarkup, item: SearchableItem) -> AppResultEligibility {
        var missing: [String] = []
        if !item.deepLinks.contains(where: { $0.isApplePlatform && ($0.appStoreID != nil || $0.url != nil) }) {
            missing.append(
                "no deep link to an Apple-platform app (Smart App Banner, twitter:app:*:iphone/ipad, al:ios/iphone/ipad, or a universal link)"
            )
        }
        if item.attributeSet.title == nil { missing.append("no title") }
        if item.attributeSet.contentDescription == nil { missing.append("no description") }
        if !page.robots.index { missing.append("the page is noindex") }
        return AppResultEligibility(isEligible: missing.isEmpty, missing: missing)
    }

    /// Every check, in a stable order.
    package static func checks(page: PageMarkup, item: SearchableItem) -> [MarkupCheck] {
        [
            titleCheck(item), descriptionCheck(page, item), imageCheck(page, item), keywordsCheck(item),
            deepLinkCheck(page, item), structuredDataCheck(page), indexingCheck(page),
        ]
    }

    private static func titleCheck(_ item: SearchableItem) -> MarkupCheck {
        guard let title = item.attributeSet.title else {
            return MarkupCheck(name: "title", status: .fail, message: "no og:title, <title> or twitter:title")
        }
        if title.count > maxTitleLength {
            return MarkupCheck(
                name: "title", status: .warn,
                message: "\(title.count) characters; Apple recommends at most \(maxTitleLength)")
        }
        return MarkupCheck(name: "title", status: .pass, message: "\"\(title)\"")
    }

    private static func descriptionCheck(_ page: PageMarkup, _ item: SearchableItem) -> MarkupCheck {
        let written = !(page.metaContents(property: "og:description") + page.metaContents(name: "description"))
            .allSatisfy { $0.trimmingASCII(" \t\n\r").isEmpty }
        guard let description = item.attributeSet.contentDescription else {
            let reason =
                page.robots.snippet
                ? "no og:description, meta description or body text"
                : "no og:description or meta description, and nosnippet forbids a generated one"
            return MarkupCheck(name: "description", status: .fail, message: reason)
        }
        if !written {
            return MarkupCheck(
                name: "description", status: .warn,
                message: "generated from the body text; add og:description or <meta name=\"description\">")
        }
        if description.count > maxDescriptionLength {
            return MarkupCheck(
                name: "description", status: .warn,
                message: "\(description.count) characters; Apple recommends at most \(maxDescriptionLength)")
        }
        return MarkupCheck(name: "description", status: .pass, message: "\(description.count) characters")
    }

    private static func imageCheck(_ page: PageMarkup, _ item: SearchableItem) -> MarkupCheck {
        guard let thumbnail = item.attributeSet.thumbnailURL else {
            return MarkupCheck(name: "image", status: .warn, message: "no og:image or schema.org image")
        }
        let width = page.metaContents(property: "og:image:width").first.flatMap { Int($0.trimmingASCII(" ")) }
        let height = page.metaContents(property: "og:image:height").first.flatMap { Int($0.trimmingASCII(" ")) }
        if let width, let height, min(width, height) < minThumbnailSize {
            return MarkupCheck(
                name: "image", status: .warn,
                message: "\(width)×\(height) px; Apple recommends at least \(minThumbnailSize) px")
        }
        return MarkupCheck(name: "image", status: .pass, message: thumbnail)
    }

    private static func keywordsCheck(_ item: SearchableItem) -> MarkupCheck {
        let count = item.attributeSet.keywords?.count ?? 0
        guard recommendedKeywords.contains(count) else {
            return MarkupCheck(name: "keywords", status: .warn, message: "\(count) keywords; Apple recommends 3 to 5")
        }
        return MarkupCheck(name: "keywords", status: .pass, message: "\(count) keywords")
    }

    private static func deepLinkCheck(_ page: PageMarkup, _ item: SearchableItem) -> MarkupCheck {
        if let banner = DeepLinkReader(page: page).smartAppBanner {
            guard let appID = banner.appID else {
                return MarkupCheck(name: "deepLink", status: .fail, message: "apple-itunes-app has no app-id")
            }
            guard appID.allSatisfy(\.isNumber) else {
                return MarkupCheck(
                    name: "deepLink", status: .fail, message: "app-id \"\(appID)\" is not a numeric App Store ID")
            }
            if let argument = banner.appArgument, isHomeScreenArgument(argument, page: page) {
                return MarkupCheck(
                    name: "deepLink", status: .warn,
                    message: "app-argument \(argument) points at the home screen, not this content")
            }
            if banner.appArgument == nil {
                return MarkupCheck(
                    name: "deepLink", status: .warn,
                    message: "apple-itunes-app has no app-argument: the app opens without context")
            }
        }
        guard let first = item.deepLinks.first else {
            return MarkupCheck(
                name: "deepLink", status: .fail,
                message: "no Smart App Banner, Twitter app card, App Links or universal link")
        }
        let kinds = Set(item.deepLinks.map(\.kind.rawValue)).sorted().joined(separator: ", ")
        return MarkupCheck(
            name: "deepLink", status: .pass, message: "\(kinds) (app \(first.appStoreID ?? first.url ?? "?"))")
    }

    /// An `app-argument` that is a site's root (or another page's root path) while this page is not.
    static func isHomeScreenArgument(_ argument: String, page: PageMarkup) -> Bool {
        guard let resolved = page.resolve(argument), let pagePath = path(of: page.url),
            let argumentPath = path(of: resolved)
        else {
            return false
        }
        return (argumentPath == "/" || argumentPath.isEmpty) && pagePath != "/" && !pagePath.isEmpty
    }

    private static func path(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...].prefix { $0 != "?" && $0 != "#" })
    }

    private static func structuredDataCheck(_ page: PageMarkup) -> MarkupCheck {
        let errors = page.issues.filter { $0.kind == "jsonld" }
        let count = page.jsonLD.count + page.microdata.count + page.rdfa.filter { !$0.types.isEmpty }.count
        if let error = errors.first {
            return MarkupCheck(
                name: "structuredData", status: count > 0 ? .warn : .fail,
                message: "line \(error.line ?? 0): \(error.message)")
        }
        guard count > 0 else {
            return MarkupCheck(name: "structuredData", status: .warn, message: "no JSON-LD, microdata or RDFa")
        }
        return MarkupCheck(
            name: "structuredData", status: .pass,
            message:
                "\(page.jsonLD.count) JSON-LD block(s), \(page.microdata.count) microdata item(s), \(page.rdfa.count) RDFa item(s)"
        )
    }

    private static func indexingCheck(_ page: PageMarkup) -> MarkupCheck {
        guard page.robots.index else {
            return MarkupCheck(name: "indexing", status: .fail, message: "noindex (robots meta or X-Robots-Tag)")
        }
        return MarkupCheck(
            name: "indexing", status: .pass, message: page.robots.follow ? "index, follow" : "index, nofollow")
    }
}
