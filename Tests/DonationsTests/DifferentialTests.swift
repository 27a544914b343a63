import Donations
import Testing

/// The strict reader against the `JSONDecoder` reading it replaced (``LegacyDonationParser``): the same
/// records, and the same reasons except where the old reason was misleading (listed and pinned here).
@Suite("Strict reading matches the JSONDecoder reading")
struct DifferentialTests {
    static func both(_ line: String) -> (
        old: Result<DonationRecord, DonationIssue>, new: Result<DonationRecord, DonationIssue>
    ) {
        let bytes = Array(line.utf8)
        return (
            LegacyDonationParser.parse(bytes, file: "d.jsonl", number: 3),
            // The legacy reader never named a refused line's bundle; that is compared in `DonationParserTests`.
            DonationParser.parse(bytes, file: "d.jsonl", number: 3).mapError { issue in
                DonationIssue(file: issue.file, line: issue.line, reason: issue.reason)
            }
        )
    }

    /// A record as ordered members, so that fields can be replaced, dropped and repeated.
    typealias Fields = [(key: String, json: String)]

    static let attributes: Fields = [
        ("title", #""Lemon tart""#), ("contentDescription", #""A sharp lemon tart.""#),
        ("thumbnailURL", #""https://example.com/img/tart.jpg""#), ("keywords", #"["tart","lemon"]"#),
        ("relatedUniqueIdentifier", #""recipe-42""#), ("weakRelatedUniqueIdentifier", #""recipe-7""#),
        ("domainIdentifier", #""recipes.desserts""#), ("contentURL", #""https://example.com/r/42""#),
        ("rating", "4.5"), ("ratingCount", "120"),
    ]
    static let activity: Fields = [
        ("type", #""userActivity""#), ("bundleIdentifier", #""com.example.recipes""#), ("donor", #""device-7f3a""#),
        ("activityType", #""com.example.recipes.view""#), ("title", #""Lemon tart""#),
        ("webpageURL", #""https://example.com/recipes/lemon-tart""#),
        ("userInfo", #"{"id":"42","session":"x","n":[1,{"a":null}]}"#), ("requiredUserInfoKeys", #"["id","n"]"#),
        ("keywords", #"["tart","lemon"]"#), ("persistentIdentifier", #""recipe-42""#),
        ("expirationDate", #""2027-01-01T00:00:00Z""#), ("isEligibleForSearch", "true"),
        ("isEligibleForPublicIndexing", "true"), ("isEligibleForHandoff", "false"), ("isEligibleForPrediction", "true"),
        ("contentAttributeSet", json(attributes)),
    ]
    static let item: Fields = [
        ("type", #""searchableItem""#), ("bundleIdentifier", #""com.example.recipes""#),
        ("uniqueIdentifier", #""recipe-42""#), ("domainIdentifier", #""recipes.desserts""#),
        ("expirationDate", #""2027-01-01T00:00:00Z""#), ("attributeSet", json(attributes)),
    ]
    static let deletion: Fields = [
        ("type", #""delete""#), ("bundleIdentifier", #""com.example.recipes""#),
        ("uniqueIdentifiers", #"["recipe-42"]"#),
    ]

    /// Values of every JSON kind, and numbers at the edges of Double and Int.
    static let replacements = [
        #""s""#, #""""#, #"" ""#, "4", "4.0", "4.5", "-1", "1e2", "1e400", "1e-400", "0e400", "true", "false", "null",
        "[]", #"["a"]"#, "[1]", #"["a",null]"#, "{}", #"{"a":1}"#, #"{"x":1e400}"#, "[1e400]",
        #""https://example.com/x""#, #""2027-01-01""#, "9007199254740993.0", "9223372036854775808", #""\u00e9""#,
        #""\ud83d\ude00""#,
    ]

    static func json(_ fields: Fields) -> String {
        "{" + fields.map { "\"\($0.key)\":\($0.json)" }.joined(separator: ",") + "}"
    }

    /// Every record with each field (and an unknown one, and each attribute) replaced by each value,
    /// dropped, and repeated before and after the original.
    static var variants: [String] {
        var lines: [String] = []
        for base in [activity, item, deletion] {
            for index in base.indices {
                var dropped = base
                dropped.remove(at: index)
                lines.append(json(dropped))
                for value in replacements {
                    var replaced = base
                    replaced[index].json = value
                    lines.append(json(replaced))
                    lines.append(json(base + [(base[index].key, value)]))
                    lines.append(json([(base[index].key, value)] + base))
                }
                if base[index].key.hasSuffix("ttributeSet") {
                    for attribute in attributes.indices {
                        for value in replacements {
                            var changed = attributes
                            changed[attribute].json = value
                            var replaced = base
                            replaced[index].json = json(changed)
                            lines.append(json(replaced))
                        }
                    }
                }
            }
            for value in replacements { lines.append(json(base + [("unknown", value)])) }
        }
        return lines
    }

    /// Whether the reasons differ only where the new one was chosen on purpose: a JSON kind the old
    /// message called "a value of another kind", or a number the old message called "not valid JSON".
    static func isDeliberate(old: String, new: String) -> Bool {
        let vague = "expected a value of another kind"
        if old == vague { return new == "not a JSON object with a string 'type'" }
        if old.hasSuffix(": " + vague) {
            let path = String(old.dropLast(vague.count + 2))
            let specific = ["expected an object", "expected an array of strings", "number out of range"]
            return new.hasPrefix(path) && specific.contains { new.hasSuffix($0) }
        }
        if old == "not valid JSON" {
            return new.hasSuffix(": number out of range") || new.hasSuffix(": expected a whole number")
        }
        return false
    }

    @Test("generated variants of every record: same records, same reasons or a deliberate change")
    func generated() {
        var compared = 0
        var deliberate = 0
        for line in Self.variants {
            let (old, new) = Self.both(line)
            compared += 1
            switch (old, new) {
            case (.success(let before), .success(let after)):
                #expect(before == after, "\(line)")
            case (.failure(let before), .failure(let after)):
                if before.reason != after.reason {
                    deliberate += 1
                    #expect(Self.isDeliberate(old: before.reason, new: after.reason), "\(line): \(before) → \(after)")
                }
                #expect(before.line == after.line && before.file == after.file)
            default:
                Issue.record("\(line): \(old) → \(new)")
            }
        }
        #expect(compared > 2000)
        #expect(deliberate > 0 && deliberate < compared / 4)
    }

    @Test(
        "lines read the same way",
        arguments: [
            "not json", "", "{", "{}", #"{"type":5}"#, #"{"type":null}"#, #"{"type":"song"}"#,
            #"{"type":"delete","type":"song","bundleIdentifier":"a","all":true}"#,
            #"{"type":"song","type":"delete","bundleIdentifier":"a","all":true}"#,
            "\u{FEFF}" + #"{"type":"delete","bundleIdentifier":"a","all":true}"#,
            #" {"type":"delete","bundleIdentifier":"a","all":true} "#,
            #"{"type":"delete","bundleIdentifier":"a","all":true} x"#,
            #"{"type":"delete","bundleIdentifier":"a\u0000","all":true}"#,
            #"{"type":"delete","bundleIdentifier":"a\ud800","all":true}"#,
            #"{"type":"delete","bundleIdentifier":"a\udc00\ud800","all":true}"#,
            #"{"type":"delete","bundleIdentifier":"a","all":true,"x":NaN}"#,
            #"{"type":"delete","bundleIdentifier":"a","all":true,"x":1e99999}"#,
            #"{"type":"delete","bundleIdentifier":"\u0062","all":true}"#,
            #"{"ty\u0070e":"delete","bundleIdentifier":"b","all":true}"#,
            #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","userInfo":{"k":1,"k":1e400},"requiredUserInfoKeys":["k"]}"#,
            #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","userInfo":{"k":{"x":1,"x":2}},"requiredUserInfoKeys":["k"]}"#,
            #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","userInfo":{"k":1},"requiredUserInfoKeys":[]}"#,
            #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"ratingCount":1.5e1}}"#,
            #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"ratingCount":4.0000000000000001}}"#,
            #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"ratingCount":1e-400}}"#,
            #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"ratingCount":-9223372036854775808}}"#,
            #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"ratingCount":1e18}}"#,
            #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"rating":5e-324}}"#,
            #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"rating":-0.0}}"#,
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
            #"{"type":"delete","bundleIdentifier":"a","all":true,"x":"# + String(repeating: "[", count: 511)
                + String(repeating: "]", count: 511) + "}",
            #"{"type":"delete","bundleIdentifier":"a","all":true,"x":"# + String(repeating: "[", count: 512)
                + String(repeating: "]", count: 512) + "}",
        ])
    func same(line: String) {
        let (old, new) = Self.both(line)
        #expect(old == new, "\(line.prefix(200))")
    }

    @Test(
        "deliberate changes of reason: the old ones were misleading",
        arguments: [
            // The top level is not an object: "a value of another kind" said nothing.
            ("[1]", "expected a value of another kind", "not a JSON object with a string 'type'"),
            ("[]", "expected a value of another kind", "not a JSON object with a string 'type'"),
            // A number out of range, or a fraction where a whole number is needed, is valid JSON.
            (
                #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"ratingCount":4.5}}"#,
                "not valid JSON", "attributeSet.ratingCount: expected a whole number"
            ),
            (
                #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":{"rating":1e400}}"#,
                "not valid JSON", "attributeSet.rating: number out of range"
            ),
            // A wrong container kind is named.
            (
                #"{"type":"searchableItem","bundleIdentifier":"a","uniqueIdentifier":"i","attributeSet":[]}"#,
                "attributeSet: expected a value of another kind", "attributeSet: expected an object"
            ),
            (
                #"{"type":"delete","bundleIdentifier":"a","uniqueIdentifiers":"x"}"#,
                "uniqueIdentifiers: expected a value of another kind", "uniqueIdentifiers: expected an array of strings"
            ),
            (
                #"{"type":"userActivity","bundleIdentifier":"a","donor":"d","activityType":"v","userInfo":{"k":[1e400]}}"#,
                "userInfo.k: expected a value of another kind", "userInfo.k[0]: number out of range"
            ),
        ])
    func deliberate(line: String, old: String, new: String) {
        let (before, after) = Self.both(line)
        #expect(before.failureReason == old)
        #expect(after.failureReason == new)
    }

    /// JSONDecoder accepts a trailing comma inside an object or a nested array, and checks a number's
    /// syntax only when a field reads it (so `01`, `1.` or `-` in an unknown member passed). RFC 8259
    /// allows none of these, and the strict parser refuses the line as not JSON.
    @Test(
        "lines JSONDecoder accepted although they are not JSON",
        arguments: [
            #"{"type":"delete","bundleIdentifier":"a","all":true,}"#,
            #"{"type":"delete","bundleIdentifier":"a","uniqueIdentifiers":["x",]}"#,
            #"{"type":"delete","bundleIdentifier":"a","all":true,"x":01}"#,
            #"{"type":"delete","bundleIdentifier":"a","all":true,"x":[1.]}"#,
            #"{"type":"delete","bundleIdentifier":"a","all":true,"x":-}"#,
        ])
    func notJSON(line: String) {
        let (old, new) = Self.both(line)
        #expect(old.failureReason == nil)
        #expect(new.failureReason == "not valid JSON")
    }
}

extension Result<DonationRecord, DonationIssue> {
    var failureReason: String? {
        if case .failure(let issue) = self { return issue.reason }
        return nil
    }
}
