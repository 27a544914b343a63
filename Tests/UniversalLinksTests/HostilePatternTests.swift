import Testing
import UniversalLinks

/// Hostile patterns and URLs finish quickly: matching is a single pass with pruning, and every call
/// has a step budget. The time bounds are loose (debug build, shared machine); they catch exponential
/// or quadratic-in-everything behaviour, not small slowdowns.
@Suite("Hostile patterns")
struct HostilePatternTests {
    static let longPath = "https://example.com/" + String(repeating: "a", count: 4_096)

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("*a*a*a…*b against a 4 KB path: decided, no match, well under a second")
    func starStorm() throws {
        let pattern = String(repeating: "*a", count: 500) + "*b"
        let file = try AppSiteAssociation(componentsFile(#"[{"/": "\#(pattern)"}]"#))
        var evaluation: UniversalLinkEvaluation?
        let elapsed = ContinuousClock().measure { evaluation = file.evaluate(Self.longPath) }
        #expect(evaluation?.isComplete == true)
        #expect(evaluation?.matches.isEmpty == true)
        #expect(Self.seconds(elapsed) < 1)
        // The same storm that can match does.
        let matching = try AppSiteAssociation(componentsFile(#"[{"/": "\#(String(repeating: "*a", count: 500))*"}]"#))
        #expect(matching.appIDs(matching: Self.longPath) == ["ABCDE12345.com.example.app"])
    }

    @Test("Many costly rules exhaust the step budget instead of the clock")
    func budget() throws {
        let costly = "*" + String(repeating: "a", count: 1_000) + "b"
        let rules = Array(repeating: #"{"/": "\#(costly)"}"#, count: 100).joined(separator: ", ")
        let file = try AppSiteAssociation(componentsFile("[\(rules), {\"/\": \"*\"}]"))
        var evaluation: UniversalLinkEvaluation?
        let elapsed = ContinuousClock().measure { evaluation = file.evaluate(Self.longPath) }
        #expect(evaluation?.isComplete == false)
        #expect(evaluation?.matches.isEmpty == true)
        // About 20 ms in a release build; the bound leaves room for debug builds on a busy machine.
        #expect(Self.seconds(elapsed) < 3)
        #expect(file.appIDs(matching: Self.longPath).isEmpty)
        // A short URL is decided by the catch-all after the costly rules.
        #expect(file.evaluate("https://example.com/short").matches.map(\.rule) == [component(100)])
    }

    @Test("Variables with wildcard values under stars stay bounded")
    func variableStorm() throws {
        let pattern = String(repeating: "*$(v)", count: 50) + "*b"
        let file = try AppSiteAssociation(
            componentsFile(
                #"[{"/": "\#(pattern)"}]"#, extra: #""substitutionVariables": {"v": ["a*a", "?a", "$(x", "aa*"]}, "#))
        var evaluation: UniversalLinkEvaluation?
        let elapsed = ContinuousClock().measure { evaluation = file.evaluate(Self.longPath) }
        #expect(evaluation?.matches.isEmpty == true)
        #expect(Self.seconds(elapsed) < 2)
    }

    @Test("An over-long URL is not matched and reported incomplete")
    func longURL() throws {
        let file = try AppSiteAssociation(componentsFile(#"[{"/": "*"}]"#))
        let evaluation = file.evaluate("https://example.com/" + String(repeating: "x", count: 9_000))
        #expect(evaluation.isComplete == false)
        #expect(evaluation.matches.isEmpty)
    }
}
