internal import StrictJSON

/// Turns the parsed JSON into details and rules, recording every non-fatal problem as an issue.
///
/// Structure (Apple's `applinks` reference): the top level is an object whose `applinks` object has a
/// `details` array, and optionally `defaults`, `substitutionVariables` and the legacy `apps`. Each
/// detail names apps by `appIDs` (or legacy `appID`) and has `components` or legacy `paths`.
struct AssociationDecoder {
    var issues: [AppSiteAssociationIssue] = []
    let limits: AppSiteAssociation.Limits
    var variables = SubstitutionVariables()
    /// Rules compiled so far, and automaton nodes still allowed, across the whole file.
    var ruleCount = 0
    var remainingNodes: Int

    init(limits: AppSiteAssociation.Limits) {
        self.limits = limits
        remainingNodes = limits.maximumTotalNodes
    }

    mutating func decode(_ root: JSONValue) throws(AppSiteAssociationError) -> [AppLinksDetail] {
        guard case .object(let members) = root else {
            throw AppSiteAssociationError(
                kind: .notAnObject,
                reason: "the top level is \(root.typeName), not an object with an \"applinks\" key"
                    + (root.isAssetLinksList ? " (this looks like Android's assetlinks.json)" : ""))
        }
        let top = fields(members, at: .root, known: ["applinks", "webcredentials", "appclips", "activitycontinuation"])
        guard let applinksValue = top["applinks"] else {
            let others = top.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw AppSiteAssociationError(
                kind: .missingAppLinks,
                reason: "no \"applinks\" key, so the file declares no universal links"
                    + (others.isEmpty ? "" : " (it has \(others))"))
        }
        let applinksPath = JSONPath.root.member("applinks")
        guard case .object(let applinksMembers) = applinksValue else {
            throw structural("must be an object, found \(applinksValue.typeName)", at: applinksPath)
        }
        let applinks = fields(
            applinksMembers, at: applinksPath, known: ["apps", "details", "defaults", "substitutionVariables"])
        if let apps = applinks["apps"] { checkLegacyApps(apps, at: applinksPath.member("apps")) }
        let defaults = decodeDefaults(
            applinks["defaults"], at: applinksPath.member("defaults"), inherited: MatchOptions())
        if let value = applinks["substitutionVariables"] {
            variables.custom = decodeVariables(value, at: applinksPath.member("substitutionVariables"))
        }
        let detailsPath = applinksPath.member("details")
        guard let detailsValue = applinks["details"] else {
            throw structural("has no \"details\" array, so it links no app", at: applinksPath)
        }
        guard case .array(let entries) = detailsValue else {
            throw structural("must be an array of objects, found \(detailsValue.typeName)", at: detailsPath)
        }
        if entries.isEmpty { record(.emptyDetails, at: detailsPath, "is empty: the file links no app") }
        var details: [AppLinksDetail] = []
        for (index, entry) in entries.enumerated() {
            if let detail = decodeDetail(entry, at: detailsPath.element(index), defaults: defaults) {
                details.append(detail)
            }
        }
        return details
    }

    private mutating func decodeDetail(_ value: JSONValue, at path: JSONPath, defaults: MatchOptions) -> AppLinksDetail?
    {
        guard case .object(let members) = value else {
            record(.wrongType, at: path, "must be an object, found \(value.typeName); the entry is skipped")
            return nil
        }
        let detail = fields(members, at: path, known: ["appID", "appIDs", "components", "paths", "defaults"])
        let appIDs = decodeAppIDs(detail, at: path)
        guard !appIDs.isEmpty else {
            record(
                .missingAppIDs, at: path, "names no app (no \"appIDs\" array or \"appID\" string); the entry is skipped"
            )
            return nil
        }
        let options = decodeDefaults(detail["defaults"], at: path.member("defaults"), inherited: defaults)
        if let components = detail["components"] {
            if detail["paths"] != nil {
                record(.pathsIgnored, at: path.member("paths"), "is ignored because \"components\" is present")
            }
            let rules = decodeComponents(components, at: path.member("components"), defaults: options)
            return AppLinksDetail(location: path.description, appIDs: appIDs, format: .components, rules: rules)
        }
        if let paths = detail["paths"] {
            let rules = decodePaths(paths, at: path.member("paths"))
            return AppLinksDetail(location: path.description, appIDs: appIDs, format: .paths, rules: rules)
        }
        record(.noRules, at: path, "has neither \"components\" nor \"paths\", so it matches no URL")
        return AppLinksDetail(location: path.description, appIDs: appIDs, format: .none, rules: [])
    }

    /// `appIDs` (array of strings) wins over the legacy `appID` (one string), as on iOS 13 and later.
    private mutating func decodeAppIDs(_ detail: [String: JSONValue], at path: JSONPath) -> [String] {
        var appIDs: [String] = []
        if let value = detail["appIDs"] {
            appIDs = strings(in: value, at: path.member("appIDs"), what: "app ID")
        }
        switch detail["appID"] {
        case .string(let appID)?:
            if appIDs.isEmpty {
                appIDs = [appID]
            } else if !appIDs.contains(appID) {
                record(.conflictingAppIDs, at: path.member("appID"), "\"\(appID)\" is not in \"appIDs\" and is ignored")
            }
        case .array?:
            record(
                .appIDArray, at: path.member("appID"),
                "is an array; Apple documents one string here and a list under \"appIDs\" (accepted, but devices may ignore it)"
            )
            if appIDs.isEmpty, let value = detail["appID"] {
                appIDs = strings(in: value, at: path.member("appID"), what: "app ID")
            }
        case let other?:
            record(.wrongType, at: path.member("appID"), "must be a string, found \(other.typeName); it is ignored")
        case nil:
            break
        }
        var unique: [String] = []
        for appID in appIDs where !unique.contains(appID) {
            if !Self.isWellFormedAppID(appID) {
                record(
                    .invalidAppID, at: path,
                    "app ID \"\(appID)\" is not in TEAMID.bundle.identifier form (10-character team ID, a dot, the bundle ID)"
                )
            }
            unique.append(appID)
        }
        return unique
    }

    /// A 10-character upper-case alphanumeric app ID prefix (the team ID), a dot, and a bundle ID of
    /// letters, digits, `-` and `.`.
    static func isWellFormedAppID(_ appID: String) -> Bool {
        let scalars = Array(appID.unicodeScalars)
        guard scalars.count > 11, scalars[10] == "." else { return false }
        let isPrefix = scalars[..<10].allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        let bundle = scalars[11...]
        let isBundle =
            bundle.first != "." && bundle.last != "."
            && bundle.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".")
            }
        return isPrefix && isBundle
    }

    private mutating func checkLegacyApps(_ value: JSONValue, at path: JSONPath) {
        switch value {
        case .array(let apps) where apps.isEmpty: break
        case .array:
            record(.deprecatedApps, at: path, "is a legacy key that must be an empty array; its entries are ignored")
        default:
            record(.deprecatedApps, at: path, "is a legacy key that must be an empty array, found \(value.typeName)")
        }
    }

    private func structural(_ reason: String, at path: JSONPath) -> AppSiteAssociationError {
        AppSiteAssociationError(kind: .invalidAppLinks, reason: reason, location: path.description)
    }
}

extension JSONValue {
    /// An array of objects with `relation` and `target`: Android's Digital Asset Links file.
    fileprivate var isAssetLinksList: Bool {
        guard case .array(let entries) = self, case .object(let members)? = entries.first else { return false }
        return members.contains { $0.key == "relation" } && members.contains { $0.key == "target" }
    }
}
