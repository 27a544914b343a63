import Testing

@testable import UniversalLinks

/// The pattern engine on its own: wildcard semantics and the bound on work.
@Suite("Glob patterns")
struct GlobPatternTests {
    struct GlobCase: Sendable, CustomTestStringConvertible {
        let pattern: String
        let text: String
        let matches: Bool

        init(_ pattern: String, _ text: String, _ matches: Bool) {
            self.pattern = pattern
            self.text = text
            self.matches = matches
        }

        var testDescription: String { "\(pattern) ~ \(text) → \(matches)" }
    }

    static let cases: [GlobCase] = [
        GlobCase("*", "", true),
        GlobCase("*", "/any/thing", true),
        GlobCase("?", "", false),
        GlobCase("?", "a", true),
        GlobCase("?", "ab", false),
        GlobCase("?*", "", false),
        GlobCase("?*", "a", true),
        GlobCase("?*", "abc", true),
        GlobCase("/a**b", "/ab", true),
        GlobCase("/a**b", "/axxb", true),
        GlobCase("/a*b*c", "/abbbc", true),
        GlobCase("/a*b*c", "/acb", false),
        GlobCase("/a*", "/a", true),
        GlobCase("/a", "/a/", false),
        GlobCase("/a", "/ab", false),
        GlobCase("*.html", "/x/y.html", true),
        GlobCase("*.html", "/x/y.htm", false),
        GlobCase("/*/x", "//x", true),
        GlobCase("/é?", "/éa", true),
        GlobCase("", "", true),
        GlobCase("", "/", false),
        GlobCase("a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", true),
        GlobCase("a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false),
    ]

    @Test("Wildcards", arguments: cases)
    func wildcard(_ globCase: GlobCase) throws {
        let pattern = try GlobPattern(
            globCase.pattern, GlobPattern.Context(options: MatchOptions(percentEncoded: false)))
        var budget = 1_000_000
        #expect(pattern.matches(Array(globCase.text.unicodeScalars), budget: &budget) == globCase.matches)
    }

    @Test("A variable's values share a trie: $(lang) stays small")
    func trie() throws {
        let context = GlobPattern.Context(variables: SubstitutionVariables())
        let pattern = try GlobPattern("/$(lang)/", context)
        let letters = SubstitutionVariables.languages.reduce(0) { $0 + $1.unicodeScalars.count }
        #expect(SubstitutionVariables.languages.count > 400)
        #expect(pattern.nodes.count < letters)
    }

    @Test("Node limit refuses a pattern that would compile too large")
    func nodeLimit() {
        var context = GlobPattern.Context(variables: SubstitutionVariables())
        context.maximumNodes = 2_000
        #expect(throws: GlobPattern.CompileError.self) {
            try GlobPattern("/$(lang)/$(lang)/", context)
        }
    }
}
