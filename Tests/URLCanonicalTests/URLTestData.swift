import FixtureServer
import Foundation
import Testing
import URLCanonical

/// One case of WHATWG's `urltestdata.json`: parse `input` against `base`, expect `href` or failure.
struct URLTestCase: Sendable, CustomTestStringConvertible {
    let index: Int
    let input: String
    let base: String?
    /// `nil` when the case expects failure.
    let href: String?

    var testDescription: String { "#\(index) \(input.debugDescription) against \(base ?? "no base")" }

    /// The outcome of running the case: `nil` when it matches, else what the parser did instead.
    func mismatch() -> String? {
        var baseURL: WebURL?
        if let base {
            guard let parsed = WebURL(base) else { return "base did not parse" }
            baseURL = parsed
        }
        let parsed = WebURL(input, base: baseURL)
        switch (parsed?.href, href) {
        case (nil, nil): return nil
        case (let got?, nil): return "expected failure, got \(got)"
        case (nil, let want?): return "failed, expected \(want)"
        case (let got?, let want?): return got == want ? nil : "got \(got), expected \(want)"
        }
    }

    /// Whether the case involves a special scheme the crawler meets (http or https) in input or base.
    var isWeb: Bool {
        let strings = [input.lowercased(), base?.lowercased() ?? ""]
        return strings.contains { $0.hasPrefix("http:") || $0.hasPrefix("https:") }
    }

    /// Every object in the fixture (the strings between them are comments).
    static func all() throws -> [URLTestCase] {
        let data = try Fixtures.bytes("conformance/url/urltestdata.json")
        guard let array = try JSONSerialization.jsonObject(with: Data(data)) as? [Any] else { return [] }
        return array.compactMap { $0 as? [String: Any] }.enumerated().compactMap { index, object in
            guard let input = object["input"] as? String else { return nil }
            let failure = object["failure"] as? Bool ?? false
            return URLTestCase(
                index: index, input: input, base: object["base"] as? String,
                href: failure ? nil : object["href"] as? String)
        }
    }
}
