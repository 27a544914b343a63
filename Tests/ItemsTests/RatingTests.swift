import Items
import Testing

/// One `AggregateRating`, as a page could write it.
struct RatingCase: Sendable, CustomTestStringConvertible {
    let value: String
    var best: String?
    var worst: String?
    /// The rating on 0–5 the item should carry; `nil` for none.
    let expected: Double?
    /// The `rating` check's message should contain this; `nil` when there is no such check.
    var warning: String?

    var testDescription: String {
        "ratingValue \(value)" + (best.map { ", bestRating \($0)" } ?? "") + (worst.map { ", worstRating \($0)" } ?? "")
    }

    /// The properties and their values, in the order written.
    var properties: [(String, String)] {
        [("ratingValue", value)] + (best.map { [("bestRating", $0)] } ?? [])
            + (worst.map { [("worstRating", $0)] } ?? [])
            + [("ratingCount", "12")]
    }

    static let all: [RatingCase] = [
        RatingCase(value: "3", expected: 3),
        RatingCase(value: "3", best: "5", worst: "1", expected: 3),
        RatingCase(value: "3", best: "5", expected: 3),
        RatingCase(value: "3", worst: "1", expected: 3),
        RatingCase(value: "4.5", expected: 4.5),
        RatingCase(value: "8", best: "10", expected: 4),
        RatingCase(value: "8", best: "10", worst: "1", expected: 4),
        RatingCase(value: "1", best: "10", worst: "1", expected: 0.5),
        RatingCase(value: "10", best: "10", worst: "1", expected: 5),
        RatingCase(value: "80", best: "100", worst: "0", expected: 4),
        RatingCase(value: "45", best: "100", expected: 2.25),
        RatingCase(value: "7", best: "5", expected: 5, warning: "ratingValue 7 is above bestRating 5"),
        RatingCase(value: "12", expected: 5, warning: "ratingValue 12 is above bestRating 5"),
        RatingCase(value: "0", best: "5", worst: "1", expected: 0, warning: "ratingValue 0 is below worstRating 1"),
        RatingCase(value: "3", best: "0", expected: nil, warning: "bestRating 0 is not a positive number"),
    ]
}

/// The three syntaxes a rating comes in; JSON-LD twice, with numbers and with strings.
enum RatingSyntax: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case jsonLDNumbers, jsonLDStrings, microdata, rdfa

    var testDescription: String { rawValue }

    func page(_ rating: RatingCase) -> String {
        switch self {
        case .jsonLDNumbers, .jsonLDStrings:
            let members = rating.properties.map { name, value in
                "\"\(name)\":" + (self == .jsonLDNumbers ? value : "\"\(value)\"")
            }
            return ItemsTests.page(
                head: jsonLD(
                    #"{"@context":"https://schema.org","@type":"Product","name":"P","aggregateRating":{"@type":"AggregateRating","#
                        + members.joined(separator: ",") + "}}"))
        case .microdata:
            let properties = rating.properties.map { "<meta itemprop=\"\($0)\" content=\"\($1)\">" }.joined()
            return ItemsTests.page(
                body: """
                    <div itemscope itemtype="https://schema.org/Product"><span itemprop="name">P</span>
                    <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">\(properties)</div></div>
                    """)
        case .rdfa:
            let properties = rating.properties.map { "<span property=\"\($0)\">\($1)</span>" }.joined()
            return ItemsTests.page(
                body: """
                    <div vocab="https://schema.org/" typeof="Product"><span property="name">P</span>
                    <div property="aggregateRating" typeof="AggregateRating">\(properties)</div></div>
                    """)
        }
    }
}

@Suite("Mapping: ratings on 0–5")
struct RatingTests {
    @Test(
        "rating is ratingValue × 5 ÷ bestRating (default 5), clamped; worstRating only validates",
        arguments: RatingSyntax.allCases, RatingCase.all)
    func rating(syntax: RatingSyntax, rating: RatingCase) throws {
        let result = extraction(syntax.page(rating))
        #expect(result.item.attributeSet.rating == rating.expected)
        #expect(result.item.attributeSet.ratingCount == (rating.expected == nil ? nil : 12))
        let checks = result.checks.filter { $0.name == "rating" }
        if let warning = rating.warning {
            let check = try #require(checks.first)
            #expect(checks.count == 1)
            #expect(check.status == .warn)
            #expect(check.message.contains(warning), "\(check.message)")
        } else {
            #expect(checks.isEmpty)
        }
    }

    @Test("A Recipe's aggregateRating is scaled the same way, and warned about once")
    func recipe() throws {
        let result = extraction(
            page(
                head: jsonLD(
                    #"""
                    {"@context":"https://schema.org","@type":"Recipe","name":"Tart",
                     "aggregateRating":{"@type":"AggregateRating","ratingValue":"3","bestRating":"5","worstRating":"1","ratingCount":"9"}}
                    """#)))
        let recipe = try #require(result.item.attributeSet.recipe)
        #expect(recipe.rating == 3)
        #expect(recipe.ratingCount == 9)
        #expect(result.item.attributeSet.rating == 3)
        let above = extraction(
            page(
                head: jsonLD(
                    #"{"@context":"https://schema.org","@type":"Recipe","name":"Tart","aggregateRating":{"@type":"AggregateRating","ratingValue":"9"}}"#
                )))
        #expect(above.item.attributeSet.recipe?.rating == 5)
        #expect(above.checks.filter { $0.name == "rating" }.count == 1)
    }

    @Test("A ratingValue that is not a finite number is no rating", arguments: ["NaN", "inf", "-infinity", "four"])
    func notANumber(value: String) {
        let result = extraction(
            page(
                head: jsonLD(
                    #"{"@context":"https://schema.org","@type":"AggregateRating","ratingValue":"# + "\"\(value)\"}")))
        #expect(result.item.attributeSet.rating == nil)
    }
}
