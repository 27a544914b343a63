import FixtureServer
import Foundation
import Markup
import Testing

/// One pairing of `Fixtures/conformance/structured-data/MANIFEST.json`: an extruct sample page, the output extruct
/// expects for it, and the extractor options upstream used.
struct ConformanceCase: Sendable, Hashable, CustomTestStringConvertible {
    /// `microdata`, `json-ld`, `opengraph`, `rdfa`, `microformat`, `dublincore` or `all`.
    let syntax: String
    /// The input page, relative to the manifest's folder.
    let html: String
    /// The expected output, relative to the manifest's folder; unique, so it names the case.
    let expected: String
    /// The `base_url` upstream passed, if any.
    let baseURL: String?
    /// extruct's microdata options: `strict` (always lists), `nested` (`false`: a flat list with `iid` references),
    /// `add_text_content`; and `uniform`, `return_html_node`.
    let strict: Bool
    let nested: Bool
    let addTextContent: Bool
    let uniform: Bool
    let returnHTMLNode: Bool
    /// How upstream compares, in words (the manifest's `compare`).
    let compare: String
    /// The upstream test the pairing was read from.
    let upstreamTest: String

    /// The case's name in the known-differences table and in `Docs/conformance.md`.
    var name: String { expected }

    var testDescription: String { "\(syntax): \(expected)" }

    /// The URL the page is extracted as: `base_url` when upstream gave one (or the URL the CLI fetched, for
    /// `tovestyrke`), else a fixed `http://example.com/` page, as the project needs an absolute URL and extruct
    /// resolves nothing without one.
    var pageURL: String {
        if let baseURL { return baseURL }
        if expected == "songkick/tovestyrke.json" {
            return "https://www.songkick.com/concerts/30166884-tove-styrke-at-hoxton-square-bar-and-kitchen"
        }
        return "http://example.com/"
    }

    /// Whether upstream compares order-insensitively with blank nodes renumbered (`assertJsonLDEqual`).
    var comparesAsGraph: Bool { compare.hasPrefix("expanded JSON-LD") }

    /// Whether upstream compares only the `rdfa` key of an all-syntaxes result (`test_rdfa_is_preserving_order`).
    var comparesOnlyRDFa: Bool { compare.hasPrefix("only the \"rdfa\" key") }
}

extension ConformanceCase {
    /// Runs the case: extracts the page as ``pageURL``, adapts the result to extruct's shape and compares it with
    /// the expected file the way upstream does.
    /// - Returns: `nil` when the adapted output matches extruct's; else the first difference.
    func difference() throws -> String? {
        let markup = PageExtractor.extract(utf8: try ConformanceManifest.bytes(html), url: pageURL)
        let expectedJSON = try ConformanceValue(json: Data(try ConformanceManifest.bytes(expected)))
        var wanted = ConformanceAdapter.expected(self, expectedJSON)
        var found = ConformanceAdapter.actual(self, markup)
        if ["microdata", "rdfa"].contains(syntax) {
            // The project collapses white space in text values on purpose; extruct keeps what its text extraction
            // (microdata) or the page (RDFa) had. Only the white space is forgiven: "a b" never matches "ab".
            wanted = wanted.collapsingWhitespace
            found = found.collapsingWhitespace
        }
        return ConformanceComparison(pageURL: pageURL).difference(found, wanted, graph: comparesAsGraph)
    }
}

/// Reads the manifest.
enum ConformanceManifest {
    /// The fixture folder, relative to `Fixtures/`.
    static let folder = "conformance/structured-data"

    /// Every pairing, in manifest order.
    static func load() throws -> [ConformanceCase] {
        let data = Data(try Fixtures.bytes("\(folder)/MANIFEST.json"))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = root["entries"] as? [[String: Any]]
        else { throw ConformanceError("MANIFEST.json has no \"entries\" list") }
        return try entries.map(parse)
    }

    /// The pairings of the given syntaxes; empty when the manifest cannot be read, which
    /// `ConformanceStructuredDataTests.manifest()` reports as a failure.
    static func cases(_ syntaxes: String...) -> [ConformanceCase] {
        ((try? load()) ?? []).filter { syntaxes.contains($0.syntax) }
    }

    /// The bytes of a file of the manifest's folder.
    static func bytes(_ path: String) throws -> [UInt8] {
        try Fixtures.bytes("\(folder)/\(path)")
    }

    private static func parse(_ entry: [String: Any]) throws -> ConformanceCase {
        guard let syntax = entry["syntax"] as? String, let html = entry["html"] as? String,
            let expected = entry["expected"] as? String, let options = entry["options"] as? [String: Any]
        else { throw ConformanceError("malformed manifest entry \(entry)") }
        return ConformanceCase(
            syntax: syntax, html: html, expected: expected, baseURL: options["base_url"] as? String,
            strict: options["strict"] as? Bool ?? false, nested: options["nested"] as? Bool ?? true,
            addTextContent: options["add_text_content"] as? Bool ?? false,
            uniform: options["uniform"] as? Bool ?? false,
            returnHTMLNode: options["return_html_node"] as? Bool ?? false, compare: entry["compare"] as? String ?? "",
            upstreamTest: entry["upstream_test"] as? String ?? "")
    }
}
