import Testing
import UniversalLinks

/// Hostile patterns and URLs finish quickly: matching is a single pass with pruning, and every call
/// has a step budget. The work is checked in steps, not seconds: a storm must be decided within a budget
/// a few times the path's length (exponential or quadratic-in-everything matching would run out of it),
/// and a costly file must stop at its budget. How fast a step is belongs to the benchmarks.
@Suite("Hostile patterns")
struct HostilePatternTests {
    static let longPath = "https://example.com/" + String(repeating: "a", count: 4_096)

    /// Four steps per byte of ``longPath``: the storms below take about two (8,194 and 8,491 steps for its
    /// 4,116 bytes); matching quadratic in the pattern or the path would need millions.
    static let linearSteps = 4 * longPath.utf8.count

    /// Limits whose step budget is `steps`.
    static func limits(steps: Int) -> AppSiteAssociation.Limits {
        var limits = AppSiteAssociation.Limits()
        limits.maximumMatchSteps = steps
        return limits
    }

    @Test("*a*a*a…*b against a 4 KB path: decided, no match, within a budget of a few steps per byte")
    func starStorm() throws {
        let pattern = String(repeating: "*a", count: 500) + "*b"
        let file = try AppSiteAssociation(
            componentsFile(#"[{"/": "\#(pattern)"}]"#), limits: Self.limits(steps: Self.linearSteps))
        let evaluation = file.evaluate(Self.longPath)
        #expect(evaluation.isComplete)
        #expect(evaluation.matches.isEmpty)
        // The same storm that can match does.
        let matching = try AppSiteAssociation(componentsFile(#"[{"/": "\#(String(repeating: "*a", count: 500))*"}]"#))
        #expect(matching.appIDs(matching: Self.longPath) == ["ABCDE12345.com.example.app"])
    }

    @Test("Many costly rules exhaust the step budget instead of the clock")
    func budget() throws {
        let costly = "*" + String(repeating: "a", count: 1_000) + "b"
        let rules = Array(repeating: #"{"/": "\#(costly)"}"#, count: 100).joined(separator: ", ")
        let file = try AppSiteAssociation(componentsFile("[\(rules), {\"/\": \"*\"}]"))
        let evaluation = file.evaluate(Self.longPath)
        #expect(!evaluation.isComplete)
        #expect(evaluation.matches.isEmpty)
        #expect(file.appIDs(matching: Self.longPath).isEmpty)
        // A short URL is decided by the catch-all after the costly rules.
        #expect(file.evaluate("https://example.com/short").matches.map(\.rule) == [component(100)])
    }

    @Test("Variables with wildcard values under stars stay bounded")
    func variableStorm() throws {
        let pattern = String(repeating: "*$(v)", count: 50) + "*b"
        let file = try AppSiteAssociation(
            componentsFile(
                #"[{"/": "\#(pattern)"}]"#, extra: #""substitutionVariables": {"v": ["a*a", "?a", "$(x", "aa*"]}, "#),
            limits: Self.limits(steps: Self.linearSteps))
        let evaluation = file.evaluate(Self.longPath)
        #expect(evaluation.isComplete)
        #expect(evaluation.matches.isEmpty)
    }

    @Test("An over-long URL is not matched and reported incomplete")
    func longURL() throws {
        let file = try AppSiteAssociation(componentsFile(#"[{"/": "*"}]"#))
        let evaluation = file.evaluate("https://example.com/" + String(repeating: "x", count: 9_000))
        #expect(evaluation.isComplete == false)
        #expect(evaluation.matches.isEmpty)
    }
}
