import Foundation
import Markup
import Testing

/// extruct's structured-data samples as a conformance test (issue 3).
///
/// Each manifest pairing runs the project's extractor on the sample page, maps the result into extruct's shape with
/// ``ConformanceAdapter``, and compares it with extruct's expected output the way upstream's test does. A case listed
/// in ``ConformanceKnownDifferences`` must still differ (so a fix forces the table, and `Docs/conformance.md`, to be
/// updated); every other case must match.
@Suite("Structured data conformance (extruct samples)")
struct ConformanceStructuredDataTests {
    @Test("The manifest pairs 64 cases and the known-differences table names only real ones")
    func manifest() throws {
        let cases = try ConformanceManifest.load()
        #expect(cases.count == 64)
        #expect(Set(cases.map(\.name)).count == cases.count, "case names (expected files) must be unique")
        let counts = Dictionary(grouping: cases, by: \.syntax).mapValues(\.count)
        #expect(
            counts == [
                "microdata": 29, "rdfa": 15, "json-ld": 11, "opengraph": 3, "microformat": 2, "dublincore": 1, "all": 3,
            ])
        let names = Set(cases.map(\.name))
        for name in ConformanceKnownDifferences.table.keys.sorted() {
            #expect(names.contains(name), "known difference \(name) is not a manifest case")
        }
    }

    @Test("JSON-LD", arguments: ConformanceManifest.cases("json-ld"))
    func jsonLD(_ conformanceCase: ConformanceCase) throws {
        try check(conformanceCase)
    }

    @Test("Open Graph", arguments: ConformanceManifest.cases("opengraph"))
    func openGraph(_ conformanceCase: ConformanceCase) throws {
        try check(conformanceCase)
    }

    @Test("Microdata", arguments: ConformanceManifest.cases("microdata"))
    func microdata(_ conformanceCase: ConformanceCase) throws {
        try check(conformanceCase)
    }

    @Test("RDFa", arguments: ConformanceManifest.cases("rdfa"))
    func rdfa(_ conformanceCase: ConformanceCase) throws {
        try check(conformanceCase)
    }

    @Test("All syntaxes of one page", arguments: ConformanceManifest.cases("all"))
    func allSyntaxes(_ conformanceCase: ConformanceCase) throws {
        try check(conformanceCase)
    }

    @Test("Syntaxes the project does not read", arguments: ConformanceManifest.cases("microformat", "dublincore"))
    func unsupportedSyntaxes(_ conformanceCase: ConformanceCase) throws {
        try check(conformanceCase)
    }

    /// Runs one case and checks it against the known-differences table.
    private func check(_ conformanceCase: ConformanceCase) throws {
        let difference = try conformanceCase.difference()
        if let reason = ConformanceKnownDifferences.table[conformanceCase.name] {
            #expect(
                difference != nil,
                """
                \(conformanceCase.name) now matches extruct but is listed as a known difference (\(reason)): \
                remove it from ConformanceKnownDifferences.table and update Docs/conformance.md
                """)
        } else {
            #expect(difference == nil, "\(conformanceCase.name) (\(conformanceCase.upstreamTest)): \(difference ?? "")")
        }
    }

}

/// The extruct cases the project does not match, by case name (the expected file), with the reason.
///
/// Every entry is explained in `Docs/conformance.md` ("Structured data (extruct samples)"). The suite fails when a
/// listed case starts to match, so fixing a bug means deleting its line here and updating the document. Reasons start
/// with one of:
/// - `bug:` the extractor is wrong and should change;
/// - `by design:` the project deliberately does what a spec says where extruct does not, or reads less than extruct;
/// - `not modelled:` extruct reports something `PageMarkup` has no field for (an option of extruct's, not page data);
/// - `out of scope:` a syntax the project does not read (SPEC §2: JSON-LD, microdata, RDFa Lite and meta tags).
enum ConformanceKnownDifferences {
    static let table: [String: String] = [
        // Microdata
        "w3c/microdata.5.3.json":
            "by design: itemref'd properties are sorted into tree order (W3C); extruct appends them last",
        "schema.org/product-ref.json":
            "by design: the W3C crawl does not descend into an itemref'd element that is itself an item; extruct does",
        "schema.org/SearchAction.001.json":
            "by design: <input itemprop=\"query-input\"> has its W3C value (\"\"), not schema.org's shorthand",
        "schema.org/LocalBusiness.002.json":
            "by design: URL values are serialized as browsers serialize them (WHATWG: `http://host` has the path `/`); "
            + "extruct joins with Python's urljoin, which keeps `http://www.dishdash.com` as written",
        "w3c/microdata.5.2.withtext.json": "not modelled: extruct's add_text_content (an item's whole text)",
        "schema.org/product_custom_url_and_node_id.json": "not modelled: extruct's return_html_node (DOM nodes)",
        "schema.org/CreativeWork_flat_with_node_id.001.json": "not modelled: extruct's return_html_node (DOM nodes)",

        // RDFa
        "w3crdfa/w3c.rdf11primer.example014.expanded.json":
            "by design: `datatype` (RDFa Core, not Lite) is not read",
        "wikipedia/xhtml+rdfa.expanded.json":
            "by design: RDFa Core features outside RDFa Lite (`rel`, `xmlns:` prefixes, `lang` on literals)",
        "misc/Portfolio_Niels_Lubberman.json":
            "by design: RDFa 1.0 (`xmlns:`, `rel`, XML literals, `lang`)",
        "misc/expanded_OG_support_test.json":
            "by design: `xmlns:og`/`xmlns:fb` declarations are not read (RDFa Lite declares prefixes with `prefix`)",

        // All syntaxes of one page
        "songkick/elysianfields.json":
            "not modelled: Open Graph `prefix` declarations (extruct's `fb`, `concerts` namespaces and `fb:app_id`)",
        "songkick/tovestyrke.json":
            "not modelled: Open Graph `prefix` declarations (extruct's `fb`, `concerts` namespaces and `fb:app_id`)",
        "songkick/elysianfields_1.json":
            "by design: the `xmlns:test1` declaration is not read (RDFa Lite uses `prefix`)",

        // Syntaxes the project does not read
        "misc/microformat_test.json": "out of scope: microformats2",
        "misc/microformat_flat_test.json": "out of scope: microformats2",
        "misc/dublincore_test.json": "out of scope: Dublin Core meta and link elements",
    ]
}
