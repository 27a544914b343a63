internal import StrictJSON

/// The apps a host associates with itself through its `apple-app-site-association` file: every app ID it
/// names in `applinks` (`details[].appIDs`, `details[].appID`), `activitycontinuation.apps` or
/// `webcredentials.apps` — the services through which Apple ties an app to a website (associated domains).
///
/// Only the bundle part of an app ID (`TEAMID.com.example.app` → `com.example.app`) is kept: donated records
/// name their app by bundle identifier. Reading is lenient where ``AppSiteAssociation`` is strict: a file
/// that declares no universal links still associates the apps of its other services, and values of the
/// wrong type are passed over. A body over Apple's 128 KB limit, or one that is not JSON, associates nothing.
package struct AssociatedApps: Sendable, Hashable {
    /// The bundle identifiers the file names, in every service.
    package private(set) var bundles: Set<String> = []

    /// No app.
    package init() {}

    /// The apps `bytes` names (none when it cannot be read).
    package init(bytes: [UInt8], limits: AppSiteAssociation.Limits = AppSiteAssociation.Limits()) {
        guard bytes.count <= limits.maximumBytes else { return }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let options = JSONParser.Options(
            maximumDepth: limits.maximumDepth, maximumBytes: limits.maximumBytes, replacesLoneSurrogates: true)
        guard case .object(let top) = try? JSONParser.parse(bytes, from: start, options: options) else { return }
        for member in top {
            switch member.key {
            case "applinks":
                guard case .array(let details) = Self.member("details", of: member.value) else { continue }
                for detail in details {
                    add(Self.member("appIDs", of: detail))
                    add(Self.member("appID", of: detail))
                }
            case "activitycontinuation", "webcredentials":
                add(Self.member("apps", of: member.value))
            default:
                continue
            }
        }
    }

    /// Whether the file names `bundleIdentifier` in any service.
    package func associates(_ bundleIdentifier: String) -> Bool {
        bundles.contains(bundleIdentifier)
    }

    /// Adds the bundle part of an app ID, or of each app ID of an array.
    private mutating func add(_ value: JSONValue?) {
        switch value {
        case .string(let appID):
            if let bundle = Self.bundle(ofAppID: appID) { bundles.insert(bundle) }
        case .array(let values):
            for case .string(let appID) in values {
                if let bundle = Self.bundle(ofAppID: appID) { bundles.insert(bundle) }
            }
        default:
            break
        }
    }

    /// The bundle identifier of an app ID (what follows the team ID and its dot), `nil` without one.
    package static func bundle(ofAppID appID: String) -> String? {
        guard let dot = appID.firstIndex(of: "."), dot != appID.startIndex else { return nil }
        let bundle = appID[appID.index(after: dot)...]
        return bundle.isEmpty ? nil : String(bundle)
    }

    /// The first member `name` of `value` when it is an object (as JSON objects are read everywhere here).
    private static func member(_ name: String, of value: JSONValue) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == name }?.value
    }
}
