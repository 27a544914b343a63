import Items
import Robots

/// The per-site checks `validate` reports next to the page's own: the robots.txt decision
/// (with the group and rule that decided) and the universal-link verdict.
package enum SiteChecks {
    /// The `robots` check for `url` under `status`.
    package static func robots(_ status: RobotsStatus, url: String, productToken: String) -> MarkupCheck {
        switch status {
        case .unavailable(let reason, _):
            return MarkupCheck(
                name: "robots", status: .fail, message: "\(reason): a crawler must not fetch anything from this host")
        case .refused(let reason):
            return MarkupCheck(
                name: "robots", status: .fail, message: "\(reason): the address policy refuses this host")
        case .allowAll(let reason):
            return MarkupCheck(name: "robots", status: .pass, message: "\(reason): no rules, everything allowed")
        case .rules:
            let decision = status.decision(for: url, productToken: productToken)
            return MarkupCheck(
                name: "robots", status: decision.allowed ? .pass : .fail,
                message: "\(decision.allowed ? "allowed" : "disallowed") for \(productToken): "
                    + explanation(decision))
        }
    }

    /// Which group and rule decided, in words: `group 'googlebot', line 3: Disallow: /private/`.
    package static func explanation(_ decision: RobotsTxt.Decision) -> String {
        let group = decision.group.map { "group '\($0)'" } ?? "no group applies"
        guard let rule = decision.rule else {
            return decision.group == nil ? "\(group), everything is allowed" : "\(group), no rule matches"
        }
        return "\(group), line \(rule.line): \(rule.allow ? "Allow" : "Disallow"): \(rule.pattern)"
    }

    /// The `universalLinks` check for `url`, and the deep links its file adds to the item.
    package static func universalLinks(_ attempt: AppSiteAssociationLoader.Attempt, url: String) -> (
        check: MarkupCheck, deepLinks: [DeepLink]
    ) {
        guard let association = attempt.association else {
            // A file that is served but unusable (invalid, or behind a redirect Apple will not
            // follow) is a mistake to fix; no file at all only means no universal links.
            let served = attempt.httpStatus.map { (200...399).contains($0) } ?? false
            let message =
                served
                ? "apple-app-site-association: \(attempt.diagnosis ?? "unusable")"
                : "no usable apple-app-site-association (\(attempt.diagnosis ?? "not found")): the page opens no app"
            return (MarkupCheck(name: "universalLinks", status: served ? .fail : .warn, message: message), [])
        }
        let appIDs = association.appIDs(matching: url)
        let links = appIDs.map { DeepLink(kind: .universalLink, url: url, appID: $0) }
        let notes = attempt.diagnosis.map { " (file issues: \($0))" } ?? ""
        if appIDs.isEmpty {
            return (
                MarkupCheck(
                    name: "universalLinks", status: .warn,
                    message: "apple-app-site-association is valid but claims no app for this URL" + notes),
                []
            )
        }
        return (
            MarkupCheck(
                name: "universalLinks", status: attempt.diagnosis == nil ? .pass : .warn,
                message: "opens \(appIDs.joined(separator: ", "))" + notes),
            links
        )
    }
}
