import Testing
import UniversalLinks

/// One URL and the rule that must decide it: a rule location such as `applinks.details[0].components[1]`
/// means the entry's apps open the URL because of that rule; nil means no app opens it.
struct MatchCase: Sendable, CustomTestStringConvertible {
    let url: String
    let rule: String?

    init(_ url: String, _ rule: String?) {
        self.url = url
        self.rule = rule
    }

    var testDescription: String { "\(url) → \(rule ?? "no app")" }
}

/// Parses `json`, recording a test failure (and returning nil) when it throws.
func association(
    _ json: String, sourceLocation: SourceLocation = #_sourceLocation
) -> AppSiteAssociation? {
    do {
        return try AppSiteAssociation(json)
    } catch {
        Issue.record("unexpected error: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Checks that `matchCase.url` opens in exactly `appIDs`, decided by `matchCase.rule`, or in no app.
func expect(
    _ association: AppSiteAssociation?, _ matchCase: MatchCase, appIDs: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let association else { return }
    let evaluation = association.evaluate(matchCase.url)
    #expect(evaluation.isComplete, sourceLocation: sourceLocation)
    if let rule = matchCase.rule {
        #expect(evaluation.matches.map(\.appID) == appIDs, sourceLocation: sourceLocation)
        #expect(
            evaluation.matches.map(\.rule) == Array(repeating: rule, count: appIDs.count),
            sourceLocation: sourceLocation)
        #expect(association.appIDs(matching: matchCase.url) == appIDs, sourceLocation: sourceLocation)
    } else {
        #expect(evaluation.matches.isEmpty, "\(evaluation.matches)", sourceLocation: sourceLocation)
        #expect(association.appIDs(matching: matchCase.url).isEmpty, sourceLocation: sourceLocation)
    }
}

/// The error `json` throws, or nil (with a recorded failure) when it parses.
func parseError(
    _ bytes: [UInt8], limits: AppSiteAssociation.Limits = .init(), sourceLocation: SourceLocation = #_sourceLocation
) -> AppSiteAssociationError? {
    do {
        let parsed = try AppSiteAssociation(bytes: bytes, limits: limits)
        Issue.record("expected an error, parsed \(parsed.details.count) details", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Wraps `components` (a JSON array) in a one-entry file for app `ABCDE12345.com.example.app`.
func componentsFile(_ components: String, extra: String = "", detailExtra: String = "") -> String {
    """
    {"applinks": {\(extra)"details": [{"appIDs": ["ABCDE12345.com.example.app"], \(detailExtra)"components": \(components)}]}}
    """
}

/// The location of rule `index` of the first entry's components.
func component(_ index: Int) -> String { "applinks.details[0].components[\(index)]" }

/// The location of rule `index` of the first entry's legacy paths.
func pathRule(_ index: Int, detail: Int = 0) -> String { "applinks.details[\(detail)].paths[\(index)]" }
