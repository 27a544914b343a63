/// The `<base href>`, `<link>` and `<a>`/`<area>` references of one page: collected during the
/// walk, resolved at its end (once `<base href>` is known), and bounded.
///
/// A page can make its links large without being large itself: a long `<base href>` makes
/// every relative link as long as the base. So a resolved URL longer than
/// ``PageExtractor/maxURLLength`` is dropped (a base that long is ignored); only the first
/// ``PageExtractor/maxLinks`` links and ``PageExtractor/maxLinkTags`` link tags are read (the
/// rest are counted, never resolved); and the links kept hold at most
/// ``PageExtractor/maxLinkBytes`` bytes of URLs. Each bound that drops something adds one
/// issue for the page, with the line of the first reference it dropped. References left out
/// for what they are (a `mailto:` link, a `<link href>` that does not resolve) are kept as
/// written in ``PageMarkup/unresolvedReferences``, bounded in number and length too.
/// Not `Sendable`: it holds nodes of a document that lives only inside `HTMLDocument.withDocument`.
struct LinkCollector {
    private var base: (href: String, line: Int)?
    private var tags: [(node: HTMLNode, rel: [String], href: String)] = []
    private var tagsNotRead = Dropped()
    private var anchors: [(href: String, nofollow: Bool, line: Int)] = []
    private var anchorsNotRead = Dropped()
    private var scripts: [String] = []

    /// Records a `<base href>`; the first one wins.
    mutating func addBase(href: String, line: Int) {
        if base == nil { base = (href, line) }
    }

    /// Records a `<link rel href>`; `rel` holds its tokens, lowercased.
    mutating func addLinkTag(_ node: HTMLNode, rel: [String], href: String) {
        guard tags.count < PageExtractor.maxLinkTags else { return tagsNotRead.add(line: node.line) }
        tags.append((node, rel, href))
    }

    /// Records an `<a href>` or `<area href>`.
    mutating func addLink(href: String, nofollow: Bool, line: Int) {
        guard anchors.count < PageExtractor.maxLinks else { return anchorsNotRead.add(line: line) }
        anchors.append((href, nofollow, line))
    }

    /// Records a `<script src>`; past ``PageScripts/maxSources`` the rest are not kept.
    mutating func addScript(src: String) {
        if scripts.count < PageScripts.maxSources { scripts.append(src) }
    }

    /// The script sources that resolve to http(s) URLs within ``PageExtractor/maxURLLength``, against
    /// `resolver` (the one ``resolve(against:into:)`` returned).
    func scriptSources(_ resolver: URLResolver) -> [String] {
        scripts.compactMap { src in
            if case .success(let url) = resolver.webResolution(of: src) { return url }
            return nil
        }
    }

    /// Resolves the base, link tags and links into `markup` (``PageMarkup/baseURL``,
    /// ``PageMarkup/linkTags``, ``PageMarkup/links``, and ``PageMarkup/issues`` for what a bound dropped).
    /// - Parameter page: Resolves against the page URL.
    /// - Returns: The resolver for the page's other references: against `<base href>` when it resolved.
    func resolve(against page: URLResolver, into markup: inout PageMarkup) -> URLResolver {
        var resolver = page
        if let base {
            switch page.resolution(of: base.href) {
            case .success(let url):
                resolver = URLResolver(base: url)
                markup.baseURL = url
            case .failure(.tooLong):
                markup.issues.append(
                    MarkupIssue(
                        kind: "url",
                        message:
                            "<base href> longer than \(PageExtractor.maxURLLength) bytes once resolved: ignored, "
                            + "references resolve against the page URL",
                        line: base.line))
            case .failure(.unresolvable):
                break
            }
        }
        var tooLong = Dropped()
        var tagsTooLong = Dropped()
        markup.linkTags = linkTags(
            resolver, tooLong: &tagsTooLong, unresolved: &markup.unresolvedReferences, issues: &markup.issues)
        markup.links = links(
            resolver, tooLong: &tooLong, unresolved: &markup.unresolvedReferences, issues: &markup.issues)
        if tooLong.count > 0 || tagsTooLong.count > 0 {
            let what = [(tooLong.count, "link"), (tagsTooLong.count, "link tag")].filter { $0.0 > 0 }
                .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: " and ")
            markup.issues.append(
                MarkupIssue(
                    kind: "url",
                    message: "dropped \(what) longer than \(PageExtractor.maxURLLength) bytes once resolved",
                    line: [tooLong.firstLine, tagsTooLong.firstLine].compactMap { $0 }.min()))
        }
        return resolver
    }

    /// What one bound dropped: how many, and the first one's line.
    private struct Dropped {
        var count = 0
        var firstLine: Int?

        mutating func add(line: Int) {
            count += 1
            if firstLine == nil { firstLine = line }
        }
    }

    /// Keeps `href` in `unresolved`, cut, while there is room.
    private static func keep(
        _ href: String, of element: UnresolvedReference.Element, line: Int, in unresolved: inout [UnresolvedReference]
    ) {
        guard unresolved.count < PageExtractor.maxUnresolvedReferences else { return }
        var written = ""
        written.unicodeScalars.append(
            contentsOf: href.unicodeScalars.prefix(PageExtractor.maxUnresolvedReferenceLength))
        unresolved.append(UnresolvedReference(element: element, href: written, line: line))
    }

    private func linkTags(
        _ resolver: URLResolver, tooLong: inout Dropped, unresolved: inout [UnresolvedReference],
        issues: inout [MarkupIssue]
    ) -> [LinkTag] {
        if let line = tagsNotRead.firstLine {
            issues.append(
                MarkupIssue(
                    kind: "links",
                    message:
                        "\(tags.count + tagsNotRead.count) link tags: read the first \(tags.count) "
                        + "(at most \(PageExtractor.maxLinkTags) per page)",
                    line: line))
        }
        var kept: [LinkTag] = []
        for raw in tags {
            switch resolver.resolution(of: raw.href) {
            case .success(let href):
                kept.append(
                    LinkTag(
                        rel: raw.rel, href: href, hreflang: raw.node.attribute("hreflang"),
                        type: raw.node.attribute("type"), sizes: raw.node.attribute("sizes"), line: raw.node.line))
            case .failure(.tooLong):
                tooLong.add(line: raw.node.line)
            case .failure(.unresolvable):
                Self.keep(raw.href, of: .link(rel: raw.rel), line: raw.node.line, in: &unresolved)
            }
        }
        return kept
    }

    private func links(
        _ resolver: URLResolver, tooLong: inout Dropped, unresolved: inout [UnresolvedReference],
        issues: inout [MarkupIssue]
    ) -> [PageLink] {
        var kept: [PageLink] = []
        var bytes = 0
        var notRead = anchorsNotRead
        for (index, raw) in anchors.enumerated() {
            let url: String
            switch resolver.webResolution(of: raw.href) {
            case .success(let resolved): url = resolved
            case .failure(.tooLong):
                tooLong.add(line: raw.line)
                continue
            case .failure(.unresolvable):
                Self.keep(raw.href, of: .anchor, line: raw.line, in: &unresolved)
                continue
            }
            guard bytes + url.utf8.count <= PageExtractor.maxLinkBytes else {
                // This link and every later one; the ones past the count bound were never stored.
                notRead = Dropped(count: anchors.count - index + anchorsNotRead.count, firstLine: raw.line)
                break
            }
            bytes += url.utf8.count
            kept.append(PageLink(url: url, nofollow: raw.nofollow, line: raw.line))
        }
        if let line = notRead.firstLine {
            let total = anchors.count + anchorsNotRead.count
            issues.append(
                MarkupIssue(
                    kind: "links",
                    message:
                        "\(total) links: read the first \(total - notRead.count) (at most \(PageExtractor.maxLinks) "
                        + "links and \(PageExtractor.maxLinkBytes) bytes of link URLs per page)",
                    line: line))
        }
        return kept
    }
}
