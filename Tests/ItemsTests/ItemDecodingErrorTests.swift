import Items
import Testing

/// A text that is not an item, and the error that must name it.
struct DecodingFailure: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let path: String
    let reason: ItemDecodingError.Reason
    var testDescription: String { name }

    /// The smallest item, with `attributes` as its attribute set's members and `extra` after them.
    static func item(attributes: String = "", deepLinks: String = "", sources: String = #""web""#) -> String {
        #"{"uniqueIdentifier":"u","sources":[\#(sources)],"attributeSet":{\#(attributes)},"deepLinks":[\#(deepLinks)],"engagement":1}"#
    }

    /// The smallest item without the member `key`.
    static func item(without key: String) -> String {
        let members = [
            #""uniqueIdentifier":"u""#, #""sources":["web"]"#, #""attributeSet":{}"#, #""deepLinks":[]"#,
            #""engagement":1"#,
        ]
        return "{" + members.filter { !$0.hasPrefix("\"\(key)\"") }.joined(separator: ",") + "}"
    }
}

@Suite("The item codec reads strictly: text that is not an item is a located error")
struct ItemDecodingErrorTests {
    static let invalidJSON: [DecodingFailure] = [
        DecodingFailure(
            name: "empty text", text: "", path: "",
            reason: .invalidJSON("unexpected end of file, expected a value", offset: 0)),
        DecodingFailure(
            name: "text cut short", text: #"{"uniqueIdentifier":"u""#, path: "",
            reason: .invalidJSON("unexpected end of file, expected ',' or '}'", offset: 23)),
        DecodingFailure(
            name: "a trailing comma (the JSON-LD reader forgave it)", text: #"{"uniqueIdentifier":"u",}"#, path: "",
            reason: .invalidJSON("unexpected '}', expected a key in double quotes", offset: 24)),
        DecodingFailure(
            name: "a second value after the item", text: DecodingFailure.item() + "}", path: "",
            reason: .invalidJSON(
                "unexpected '}' after the end of the JSON value", offset: DecodingFailure.item().utf8.count)),
        DecodingFailure(
            name: "a raw control character in an identifier", text: "{\"uniqueIdentifier\":\"a\u{1}b\"}", path: "",
            reason: .invalidJSON("control character U+0001 in a string (write it as an escape)", offset: 22)),
        DecodingFailure(
            name: "an escaped lone surrogate", text: #"{"uniqueIdentifier":"\ud800"}"#, path: "",
            reason: .invalidJSON("\\u escape of a lone UTF-16 surrogate", offset: 21)),
        DecodingFailure(
            name: "nesting past the limit, even under a key no property reads",
            text: #"{"future":"# + String(repeating: "[", count: 64) + "]", path: "",
            reason: .invalidJSON("nesting deeper than 64 levels", offset: 73)),
    ]

    static let notItems: [DecodingFailure] = [
        DecodingFailure(
            name: "an array, not an object", text: "[]", path: "",
            reason: .wrongType(expected: "an object", found: "an array")),
        DecodingFailure(
            name: "no uniqueIdentifier", text: DecodingFailure.item(without: "uniqueIdentifier"),
            path: "uniqueIdentifier", reason: .missingKey),
        DecodingFailure(
            name: "no sources", text: DecodingFailure.item(without: "sources"), path: "sources", reason: .missingKey),
        DecodingFailure(
            name: "no attributeSet", text: DecodingFailure.item(without: "attributeSet"), path: "attributeSet",
            reason: .missingKey),
        DecodingFailure(
            name: "no deepLinks", text: DecodingFailure.item(without: "deepLinks"), path: "deepLinks",
            reason: .missingKey),
        DecodingFailure(
            name: "no engagement", text: DecodingFailure.item(without: "engagement"), path: "engagement",
            reason: .missingKey),
        DecodingFailure(
            name: "a number for the identifier", text: #"{"uniqueIdentifier":42}"#, path: "uniqueIdentifier",
            reason: .wrongType(expected: "a string", found: "a number")),
        DecodingFailure(
            name: "null for an optional string (the encoder leaves it out instead)",
            text: DecodingFailure.item(attributes: #""title":null"#), path: "attributeSet.title",
            reason: .wrongType(expected: "a string", found: "null")),
        DecodingFailure(
            name: "a number among the keywords", text: DecodingFailure.item(attributes: #""keywords":["a",2]"#),
            path: "attributeSet.keywords[1]", reason: .wrongType(expected: "a string", found: "a number")),
        DecodingFailure(
            name: "a rating written as text", text: DecodingFailure.item(attributes: #""rating":"4.5""#),
            path: "attributeSet.rating", reason: .wrongType(expected: "a number", found: "a string")),
        DecodingFailure(
            name: "a fraction for a count", text: DecodingFailure.item(attributes: #""ratingCount":4.5"#),
            path: "attributeSet.ratingCount", reason: .unrepresentableNumber("4.5")),
        DecodingFailure(
            name: "a count beyond Int", text: DecodingFailure.item(attributes: #""interactionCount":1e400"#),
            path: "attributeSet.interactionCount", reason: .unrepresentableNumber("1e400")),
        DecodingFailure(
            name: "a coordinate beyond Double", text: DecodingFailure.item(attributes: #""latitude":-1e400"#),
            path: "attributeSet.latitude", reason: .unrepresentableNumber("-1e400")),
        DecodingFailure(
            name: "a flag written as text", text: DecodingFailure.item(attributes: #""supportsPhoneCall":"true""#),
            path: "attributeSet.supportsPhoneCall", reason: .wrongType(expected: "true or false", found: "a string")),
        DecodingFailure(
            name: "a flag written as a number", text: DecodingFailure.item(attributes: #""supportsNavigation":1"#),
            path: "attributeSet.supportsNavigation", reason: .wrongType(expected: "true or false", found: "a number")),
        DecodingFailure(
            name: "an unknown source", text: DecodingFailure.item(sources: #""web","robot""#), path: "sources[1]",
            reason: .unknownValue("robot")),
        DecodingFailure(
            name: "an unknown deep link kind", text: DecodingFailure.item(deepLinks: #"{"kind":"banner"}"#),
            path: "deepLinks[0].kind", reason: .unknownValue("banner")),
        DecodingFailure(
            name: "a deep link without its kind", text: DecodingFailure.item(deepLinks: #"{"url":"app://x"}"#),
            path: "deepLinks[0].kind", reason: .missingKey),
        DecodingFailure(
            name: "a deep link that is a string", text: DecodingFailure.item(deepLinks: #""app://x""#),
            path: "deepLinks[0]", reason: .wrongType(expected: "an object", found: "a string")),
        DecodingFailure(
            name: "a medium without its URL", text: DecodingFailure.item(attributes: #""media":[{"kind":"audio"}]"#),
            path: "attributeSet.media[0].url", reason: .missingKey),
        DecodingFailure(
            name: "one offer, not a list", text: DecodingFailure.item(attributes: #""offers":{"price":"1"}"#),
            path: "attributeSet.offers", reason: .wrongType(expected: "an array", found: "an object")),
        DecodingFailure(
            name: "an address written as one string", text: DecodingFailure.item(attributes: #""address":"1 Main St""#),
            path: "attributeSet.address", reason: .wrongType(expected: "an object", found: "a string")),
        DecodingFailure(
            name: "a recipe's rating written as text",
            text: DecodingFailure.item(attributes: #""recipe":{"rating":"high"}"#), path: "attributeSet.recipe.rating",
            reason: .wrongType(expected: "a number", found: "a string")),
        DecodingFailure(
            name: "an attribute set that is an array",
            text: DecodingFailure.item().replacingOccurrences(of: #""attributeSet":{}"#, with: #""attributeSet":[]"#),
            path: "attributeSet", reason: .wrongType(expected: "an object", found: "an array")),
        DecodingFailure(
            name: "a key written twice", text: DecodingFailure.item(attributes: #""title":"a","title":"b""#),
            path: "attributeSet.title", reason: .duplicateKey),
        DecodingFailure(
            name: "a key no property reads, written twice", text: #"{"x y":1,"x y":2}"#, path: #"["x y"]"#,
            reason: .duplicateKey),
    ]

    @Test("Text that is not RFC 8259 JSON names the byte where it stops", arguments: invalidJSON)
    func notJSON(_ failure: DecodingFailure) {
        #expect(throws: ItemDecodingError(path: failure.path, reason: failure.reason)) {
            try SearchableItem(jsonText: failure.text)
        }
    }

    @Test("JSON that is not an item names the key and what is wrong there", arguments: notItems)
    func notAnItem(_ failure: DecodingFailure) {
        #expect(throws: ItemDecodingError(path: failure.path, reason: failure.reason)) {
            try SearchableItem(jsonText: failure.text)
        }
    }

    @Test("A control character escaped in an identifier reads back exactly (cleaning is publishing's job)")
    func escapedControlCharacter() throws {
        let item = try SearchableItem(
            jsonText: DecodingFailure.item().replacingOccurrences(of: #""u""#, with: #""a\u0001b""#))
        #expect(item.uniqueIdentifier == "a\u{1}b")
    }

    @Test("A rating that is not finite is refused, not read back as another number")
    func nonFiniteDouble() {
        var item = SearchableItem(uniqueIdentifier: "u", sources: [.web])
        item.attributeSet.rating = .nan
        #expect(
            throws: ItemDecodingError(
                path: "attributeSet.rating", reason: .wrongType(expected: "a number", found: "a string"))
        ) {
            try SearchableItem(jsonText: item.jsonText)
        }
    }

    @Test(
        "The message names the place and the reason, short and without control characters",
        arguments: [
            (
                ItemDecodingError(
                    path: "attributeSet.rating", reason: .wrongType(expected: "a number", found: "a string")),
                "attributeSet.rating: expected a number, found a string"
            ),
            (ItemDecodingError(path: "engagement", reason: .missingKey), "engagement: missing"),
            (
                ItemDecodingError(path: "", reason: .invalidJSON("unexpected '}'", offset: 7)),
                "not JSON at byte 7: unexpected '}'"
            ),
            (
                ItemDecodingError(
                    path: "sources[0]", reason: .unknownValue("bot\u{1B}[2J" + String(repeating: "x", count: 100))),
                "sources[0]: unknown value \"bot[2J" + String(repeating: "x", count: 73) + "…\""
            ),
            (
                ItemDecodingError(path: "", reason: .wrongType(expected: "an object", found: "null")),
                "item: expected an object, found null"
            ),
        ])
    func message(_ error: ItemDecodingError, _ expected: String) {
        #expect(error.description == expected)
    }
}
