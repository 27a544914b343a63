import Testing
import UniversalLinks

/// `$(name)` in patterns: Apple's predefined variables and `applinks.substitutionVariables`.
@Suite("Substitution variables")
struct SubstitutionVariableTests {
    static let app = ["ABCDE12345.com.example.app"]

    static let file = association(
        componentsFile(
            """
            [{"/": "/$(lang)_$(region)/$(food)/"},
             {"/": "/v$(digit)/*"},
             {"/": "/$(upper)$(lower)"},
             {"/": "/c/$(xdigit)$(xdigit)"},
             {"/": "/s/$(slug)"},
             {"/": "/n/$(alnum)$(alpha)", "#": "$(food)"},
             {"/": "/d/$(digit)/*", "?": {"page": "$(digit)"}}]
            """,
            extra: """
                "substitutionVariables": {
                  "food": ["burrito", "pizza", "sushi", "samosa"],
                  "slug": ["post-*", "page-?"]
                },
                """))

    static let cases: [MatchCase] = [
        // Apple's documented example.
        MatchCase("https://example.com/en_US/pizza/", component(0)),
        MatchCase("https://example.com/fr_CA/sushi/", component(0)),
        MatchCase("https://example.com/zh_TW/samosa/", component(0)),
        MatchCase("https://example.com/en_US/tacos/", nil),
        MatchCase("https://example.com/en_US/pizza", nil),
        MatchCase("https://example.com/en_us/pizza/", nil),
        MatchCase("https://example.com/e1_US/pizza/", nil),
        MatchCase("https://example.com/v1/a", component(1)),
        MatchCase("https://example.com/v10/a", nil),
        MatchCase("https://example.com/vx/a", nil),
        MatchCase("https://example.com/Ab", component(2)),
        MatchCase("https://example.com/ab", nil),
        MatchCase("https://example.com/AB", nil),
        MatchCase("https://example.com/c/fF", component(3)),
        MatchCase("https://example.com/c/g0", nil),
        // Values may hold wildcards.
        MatchCase("https://example.com/s/post-2024/hello", component(4)),
        MatchCase("https://example.com/s/page-1", component(4)),
        MatchCase("https://example.com/s/page-12", nil),
        MatchCase("https://example.com/n/9z#burrito", component(5)),
        MatchCase("https://example.com/n/9z#taco", nil),
        MatchCase("https://example.com/d/3/x?page=4", component(6)),
        MatchCase("https://example.com/d/3/x?page=42", nil),
    ]

    @Test("Predefined and custom variables", arguments: cases)
    func variable(_ matchCase: MatchCase) {
        expect(Self.file, matchCase, appIDs: Self.app)
    }

    @Test("The file's variable replaces a predefined one of the same name")
    func customShadowsPredefined() throws {
        let file = try #require(
            association(
                componentsFile(#"[{"/": "/$(digit)"}]"#, extra: #""substitutionVariables": {"digit": ["x"]}, "#)))
        #expect(file.appIDs(matching: "https://example.com/x") == Self.app)
        #expect(file.appIDs(matching: "https://example.com/1").isEmpty)
    }

    @Test("An unknown or unterminated variable skips its rule with an issue; the other rules stay")
    func badVariables() throws {
        let file = try #require(
            association(componentsFile(#"[{"/": "/$(nope)/*"}, {"/": "/$(lang"}, {"/": "/ok"}]"#)))
        #expect(file.details.first?.rules.map(\.path) == ["/ok"])
        #expect(file.issues.map(\.kind) == [.invalidPattern, .invalidPattern])
        #expect(file.issues.first?.reason.contains("$(nope)") == true)
        #expect(file.issues.last?.location == #"applinks.details[0].components[1]["/"]"#)
    }

    @Test("Malformed substitutionVariables entries are skipped with issues")
    func malformedVariables() throws {
        let file = try #require(
            association(
                componentsFile(
                    #"[{"/": "/$(good)"}]"#,
                    extra:
                        #""substitutionVariables": {"a(b": ["x"], "one": "x", "nested": ["$(lang)", "y"], "good": ["g", 5]}, "#
                )))
        #expect(file.issues.map(\.kind) == [.invalidVariable, .invalidVariable, .invalidVariable, .wrongType])
        #expect(file.appIDs(matching: "https://example.com/g") == Self.app)
    }

    @Test("Predefined region and language lists are ISO codes")
    func predefinedLists() throws {
        let file = try #require(association(componentsFile(#"[{"/": "/$(region)/$(lang)"}]"#)))
        for url in ["/US/en", "/GB/cy", "/DE/de", "/JP/ja", "/BR/pt"] {
            #expect(file.appIDs(matching: "https://example.com" + url) == Self.app, "\(url)")
        }
        for url in ["/us/en", "/USA/en", "/001/en", "/US/EN", "/US/zz"] {
            #expect(file.appIDs(matching: "https://example.com" + url).isEmpty, "\(url)")
        }
    }
}
