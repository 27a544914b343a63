import Testing
import UniversalLinks

/// Problems that leave the rest of the file usable: recorded as located issues, the bad part skipped.
@Suite("Diagnosis: issues")
struct DiagnosisIssueTests {
    struct IssueCase: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        let issues: [String]
        /// The paths of the rules that survive, in order.
        let rules: [String]

        var testDescription: String { name }
    }

    static let cases: [IssueCase] = [
        IssueCase(
            name: "wrongly typed path skips the rule",
            json: componentsFile(#"[{"/": 5}, {"/": "/ok"}]"#),
            issues: [#"applinks.details[0].components[0]["/"]: must be a string, found a number; the rule is skipped"#],
            rules: ["/ok"]),
        IssueCase(
            name: "non-boolean exclude skips the rule (rather than matching what it meant to exclude)",
            json: componentsFile(#"[{"/": "/a", "exclude": "yes"}, {"/": "/ok"}]"#),
            issues: [
                "applinks.details[0].components[0].exclude: must be true or false, found a string; the rule is skipped"
            ],
            rules: ["/ok"]),
        IssueCase(
            name: "non-string query item pattern",
            json: componentsFile(#"[{"/": "/a", "?": {"id": 3}}, {"/": "/ok", "?": ["x"]}, {"/": "/ok"}]"#),
            issues: [
                #"applinks.details[0].components[0]["?"].id: must be a string, found a number; the rule is skipped"#,
                #"applinks.details[0].components[1]["?"]: must be a string, found an array; the rule is skipped"#,
            ],
            rules: ["/ok"]),
        IssueCase(
            name: "component that is not an object",
            json: componentsFile(#"["/a", {"/": "/ok"}]"#),
            issues: ["applinks.details[0].components[0]: must be an object, found a string; the rule is skipped"],
            rules: ["/ok"]),
        IssueCase(
            name: "unknown key is ignored, the rule kept",
            json: componentsFile(#"[{"path": "/a", "/": "/ok"}]"#),
            issues: ["applinks.details[0].components[0].path: is not a key of this object and is ignored"],
            rules: ["/ok"]),
        IssueCase(
            name: "comment of the wrong type",
            json: componentsFile(#"[{"/": "/ok", "comment": 1}]"#),
            issues: ["applinks.details[0].components[0].comment: must be a string, found a number; ignored"],
            rules: ["/ok"]),
        IssueCase(
            name: "path pattern without a leading slash",
            json: componentsFile(#"[{"/": "buy/*"}]"#),
            issues: [#"applinks.details[0].components[0]["/"]: does not start with "/", so it never matches a path"#],
            rules: ["buy/*"]),
        IssueCase(
            name: "non-empty legacy apps array",
            json: componentsFile(#"[{"/": "/ok"}]"#, extra: #""apps": ["ABCDE12345.com.example.app"], "#),
            issues: ["applinks.apps: is a legacy key that must be an empty array; its entries are ignored"],
            rules: ["/ok"]),
        IssueCase(
            name: "duplicate key: the last value wins",
            json: componentsFile(#"[{"/": "/first", "/": "/ok"}]"#),
            issues: [#"applinks.details[0].components[0]["/"]: appears more than once; the last value is used"#],
            rules: ["/ok"]),
        IssueCase(
            name: "bad defaults",
            json: componentsFile(
                #"[{"/": "/ok"}]"#, detailExtra: #""defaults": {"caseSensitive": "no", "exclude": true}, "#),
            issues: [
                "applinks.details[0].defaults.exclude: is not a key of this object and is ignored",
                "applinks.details[0].defaults.caseSensitive: must be true or false, found a string; ignored",
            ],
            rules: ["/ok"]),
        IssueCase(
            name: "app IDs: wrong element type, bad form, conflicting appID",
            json: """
                {"applinks": {"details": [{"appIDs": [1, "com.example.app", "ABCDE12345.com.example.app"],
                  "appID": "ABCDE12345.com.example.other", "components": [{"/": "/ok"}]}]}}
                """,
            issues: [
                "applinks.details[0].appIDs[0]: app ID must be a string, found a number; skipped",
                #"applinks.details[0].appID: "ABCDE12345.com.example.other" is not in "appIDs" and is ignored"#,
                #"applinks.details[0]: app ID "com.example.app" is not in TEAMID.bundle.identifier form (10-character team ID, a dot, the bundle ID)"#,
            ],
            rules: ["/ok"]),
    ]

    @Test("Each problem is reported where it is, and only the bad part is dropped", arguments: cases)
    func issue(_ issueCase: IssueCase) throws {
        let file = try #require(association(issueCase.json))
        #expect(file.issues.map(\.description) == issueCase.issues)
        #expect(file.details.flatMap(\.rules).map(\.path) == issueCase.rules)
    }

    @Test("Entries without apps are skipped; entries without rules match nothing; empty details")
    func entries() throws {
        let file = try #require(
            association(
                """
                {"applinks": {"details": [{"components": [{"/": "*"}]}, {"appIDs": []}, "x",
                  {"appIDs": ["ABCDE12345.com.example.app"]}]}}
                """))
        #expect(file.issues.map(\.kind) == [.missingAppIDs, .missingAppIDs, .wrongType, .noRules])
        #expect(file.details.map(\.location) == ["applinks.details[3]"])
        #expect(file.appIDs(matching: "https://example.com/").isEmpty)
        let empty = try #require(association(#"{"applinks": {"details": []}}"#))
        #expect(empty.issues.map(\.kind) == [.emptyDetails])
    }

    @Test("A UTF-8 byte order mark is skipped with an issue")
    func byteOrderMark() throws {
        let file = try AppSiteAssociation(bytes: [0xEF, 0xBB, 0xBF] + Array(componentsFile(#"[{"/": "/ok"}]"#).utf8))
        #expect(file.issues.map(\.kind) == [.byteOrderMark])
        #expect(file.appIDs(matching: "https://example.com/ok") == ["ABCDE12345.com.example.app"])
    }

    @Test("Too many rules: the rest are dropped with one issue per entry that hits the limit")
    func ruleLimit() throws {
        var limits = AppSiteAssociation.Limits()
        limits.maximumRules = 3
        let json = componentsFile(#"[{"/": "/1"}, {"/": "/2"}, {"/": "/3"}, {"/": "/4"}, {"/": "/5"}]"#)
        let file = try AppSiteAssociation(json, limits: limits)
        #expect(file.details.first?.rules.map(\.path) == ["/1", "/2", "/3"])
        #expect(file.issues.map(\.kind) == [.limitExceeded])
    }

    @Test("An over-long pattern is refused with its rule")
    func longPattern() throws {
        let long = "/" + String(repeating: "a", count: 1_100)
        let file = try #require(association(componentsFile(#"[{"/": "\#(long)"}, {"/": "/ok"}]"#)))
        #expect(file.details.first?.rules.map(\.path) == ["/ok"])
        #expect(file.issues.map(\.kind) == [.invalidPattern])
        #expect(file.issues.first?.reason.contains("over the limit of 1024") == true)
    }
}
