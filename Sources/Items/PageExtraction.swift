import Markup

/// Everything `searchlight extract` and `validate` say about one page: the markup, the
/// item it maps to, the checks and the App-result verdict.
package struct PageExtraction: Sendable {
    /// What the page's markup says.
    package let page: PageMarkup
    /// How its bytes were decoded, when extraction started from bytes.
    package let decoding: DecodedText?
    /// The item the page maps to.
    package let item: SearchableItem
    /// What the mapping left out of the item or doubted (also among ``checks``, as warnings).
    package let findings: [MappingFinding]
    /// The first `<link rel="canonical">` that is an http(s) URL.
    package let canonicalURL: String?
    /// Offline checks, then one warning per finding.
    package let checks: [MarkupCheck]
    /// The App-result gate.
    package let appResult: AppResultEligibility

    /// Extracts from raw response bytes: decodes them (BOM, `Content-Type` charset, meta
    /// prescan, windows-1252), then parses. `headers` are response header fields in order.
    ///
    /// - Parameter siteDeepLinks: deep links the page has through its site rather than its markup —
    ///   universal links its host's apple-app-site-association file claims it for. They count in the
    ///   checks and the App-result gate like the markup's own.
    package init(
        bytes: [UInt8], url: String, headers: [(name: String, value: String)] = [], siteDeepLinks: [DeepLink] = []
    ) {
        let (page, decoded) = Self.markup(bytes: bytes, url: url, headers: headers)
        self.init(page: page, decoding: decoded, siteDeepLinks: siteDeepLinks)
    }

    /// The markup and the item only, without the checks and the App-result gate: what a crawler
    /// stores for every page (the checks are for people, in `extract` and `validate`).
    package static func item(bytes: [UInt8], url: String, headers: [(name: String, value: String)] = []) -> (
        page: PageMarkup, item: SearchableItem
    ) {
        let page = markup(bytes: bytes, url: url, headers: headers).page
        let graph = SchemaGraph(jsonLD: page.jsonLDEntities, microdata: page.microdata, rdfa: page.rdfa)
        return (page, WebItemBuilder(page: page, graph: graph).item().withoutControlCharacters())
    }

    /// Decodes `bytes` (BOM, `Content-Type` charset, meta prescan, windows-1252) and parses them.
    private static func markup(bytes: [UInt8], url: String, headers: [(name: String, value: String)]) -> (
        page: PageMarkup, decoded: DecodedText
    ) {
        let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value
        let robots = headers.filter { $0.name.lowercased() == "x-robots-tag" }.map(\.value)
        let decoded = CharsetDecoder.decode(bytes, contentType: contentType)
        var page = PageExtractor.extract(utf8: decoded.utf8, url: url, robotsHeaders: robots)
        if decoded.hadInvalidBytes {
            page.issues.append(
                MarkupIssue(kind: "charset", message: "bytes invalid in \(decoded.encoding) were replaced with U+FFFD"))
        }
        return (page, decoded)
    }

    /// Builds the item and checks from extracted markup (and the site's deep links, as above).
    package init(page: PageMarkup, decoding: DecodedText? = nil, siteDeepLinks: [DeepLink] = []) {
        self.page = page
        self.decoding = decoding
        let graph = SchemaGraph(jsonLD: page.jsonLDEntities, microdata: page.microdata, rdfa: page.rdfa)
        let builder = WebItemBuilder(page: page, graph: graph)
        let (mapped, findings) = builder.mapping()
        var item = mapped.withoutControlCharacters()
        item.deepLinks += siteDeepLinks.map { $0.withoutControlCharacters() }
        self.item = item
        self.findings = findings
        self.canonicalURL = page.canonicalURL
        self.checks = MarkupChecks.checks(page: page, item: item) + findings.map(\.check)
        self.appResult = MarkupChecks.appResult(page: page, item: item)
    }

    /// Parts a CI run can require with `--require`.
    package enum Part: String, Sendable, CaseIterable {
        case title, description, deepLink = "deep-link", image, structuredData = "structured-data"
    }

    /// The required parts this page lacks.
    package func missing(_ parts: [Part]) -> [Part] {
        parts.filter { part in
            switch part {
            case .title: return item.attributeSet.title == nil
            case .description: return item.attributeSet.contentDescription == nil
            case .deepLink: return item.deepLinks.isEmpty
            case .image: return item.attributeSet.thumbnailURL == nil
            case .structuredData:
                return page.jsonLD.isEmpty && page.microdata.isEmpty && page.rdfa.allSatisfy(\.types.isEmpty)
            }
        }
    }
}
