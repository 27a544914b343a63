import Markup
internal import StrictJSON

/// The URL fields: each candidate goes through ``URLPolicy/web``, the first allowed one wins, and
/// every refused one becomes a ``MappingFinding`` instead of a value.
extension WebItemBuilder {
    /// ``thumbnailURL(findings:)`` without the findings.
    package var thumbnailURL: String? {
        var ignored: [MappingFinding] = []
        return thumbnailURL(findings: &ignored)
    }

    /// `og:image` (then `og:image:url`), else the first schema.org `image` (a URL or an
    /// `ImageObject`): the first that is an http(s) URL, resolved against the page.
    func thumbnailURL(findings: inout [MappingFinding]) -> String? {
        for tag in page.metaTags(property: "og:image") + page.metaTags(property: "og:image:url") {
            if let url = webURL(tag.content, from: tag.key, line: tag.line, findings: &findings) { return url }
        }
        for entity in graph.entities {
            if let url = image(entity["image"], from: "schema.org image", findings: &findings) { return url }
        }
        return nil
    }

    /// The first allowed URL among a schema.org `image` value's candidates (strings, or
    /// `ImageObject`s' `url`/`contentUrl`).
    func image(_ value: JSONValue?, from source: String, findings: inout [MappingFinding]) -> String? {
        for candidate in value?.listValue ?? [] {
            let text =
                candidate.stringValue ?? (candidate["url"] ?? candidate["contentUrl"])?.listValue.first?.stringValue
            if let text, let url = webURL(text, from: source, findings: &findings) { return url }
        }
        return nil
    }

    /// `og:audio`, `og:video` and schema.org `AudioObject`/`VideoObject` `contentUrl` (the
    /// "play" action): every allowed one, once.
    func media(findings: inout [MappingFinding]) -> [MediaObject] {
        var result: [MediaObject] = []
        for (property, kind) in [("og:audio", "audio"), ("og:video", "video"), ("og:video:url", "video")] {
            for tag in page.metaTags(property: property) {
                if let url = webURL(tag.content, from: property, line: tag.line, findings: &findings) {
                    result.append(MediaObject(kind: kind, url: url))
                }
            }
        }
        for entity in graph.entities(ofType: ["AudioObject", "VideoObject"]) {
            let kind = SchemaGraph.types(of: entity).contains("AudioObject") ? "audio" : "video"
            if let value = entity["contentUrl"]?.listValue.first?.stringValue,
                let url = webURL(value, from: "schema.org contentUrl", findings: &findings)
            {
                result.append(MediaObject(kind: kind, url: url))
            }
        }
        var seen: Set<String> = []
        return result.filter { seen.insert($0.url).inserted }
    }

    /// `WebSite` → `potentialAction` → `SearchAction` → `target` (a URL template or an
    /// `EntryPoint` with `urlTemplate`): the first that is an http(s) URL, kept as written (a
    /// template's `{placeholders}` must survive).
    func searchAction(findings: inout [MappingFinding]) -> String? {
        for site in graph.entities(ofType: ["WebSite"]) {
            for action in site["potentialAction"]?.listValue ?? []
            where SchemaGraph.types(of: action).contains("SearchAction") {
                for target in action["target"]?.listValue ?? [] {
                    guard let template = target.stringValue ?? target["urlTemplate"]?.stringValue,
                        !Self.isBlank(template)
                    else { continue }
                    switch URLPolicy.web.decide(template, base: page.baseURL) {
                    case .accepted: return template
                    case .refused(let reason):
                        findings.append(
                            .refusedURL(URLRefusal(source: "SearchAction target", value: template, reason: reason)))
                    }
                }
            }
        }
        return nil
    }

    /// The page's canonical URL (``PageMarkup/canonicalURL``).
    package var canonicalURL: String? { page.canonicalURL }

    /// One finding for the `<a href>` targets with a scheme no field publishes (`javascript:`,
    /// `data:`, …): such links are never followed. Other non-web links (`mailto:`, `tel:`) are
    /// ordinary and not reported.
    func linkFindings(into findings: inout [MappingFinding]) {
        var first: URLRefusal?
        var count = 0
        for reference in page.unresolvedReferences where reference.element == .anchor {
            guard case .refused(let reason) = URLPolicy.web.decide(reference.href, base: page.baseURL),
                case .neverPublishedScheme = reason
            else { continue }
            count += 1
            if first == nil {
                first = URLRefusal(source: "<a href>", value: reference.href, reason: reason, line: reference.line)
            }
        }
        if let first { findings.append(.refusedLinks(first: first, count: count)) }
    }

    /// `value` resolved against the page when ``URLPolicy/web`` allows it; `nil`, with the
    /// refusal added to `findings`, when not; `nil` alone for a blank value.
    func webURL(_ value: String, from source: String, line: Int? = nil, findings: inout [MappingFinding]) -> String? {
        guard !Self.isBlank(value) else { return nil }
        switch URLPolicy.web.decide(value, base: page.baseURL) {
        case .accepted(let url):
            return url
        case .refused(let reason):
            findings.append(.refusedURL(URLRefusal(source: source, value: value, reason: reason, line: line)))
            return nil
        }
    }

    /// Whether a URL value is empty once the WHATWG parser's leading and trailing C0 controls and
    /// spaces are stripped (an empty reference would name the page itself).
    static func isBlank(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { $0.value <= 0x20 }
    }
}

extension PageMarkup {
    /// The first `<link rel="canonical">` that is an http(s) URL (``URLPolicy/web``), resolved against
    /// the page: the one rule for a page's canonical, in `extract`, `validate` and the crawler.
    package var canonicalURL: String? {
        var ignored: [MappingFinding] = []
        return canonicalURL(findings: &ignored)
    }

    /// ``canonicalURL``, with every refused candidate before it (and every dangerous one the markup
    /// could not resolve) added to `findings`.
    func canonicalURL(findings: inout [MappingFinding]) -> String? {
        // A canonical the markup could not resolve is never used; a dangerous one is still reported.
        for reference in unresolvedReferences {
            guard case .link(let rel) = reference.element, rel.contains("canonical"),
                case .refused(let reason) = URLPolicy.web.decide(reference.href, base: baseURL)
            else { continue }
            findings.append(
                .refusedURL(
                    URLRefusal(source: "rel=canonical", value: reference.href, reason: reason, line: reference.line)))
        }
        for tag in linkTags where tag.rel.contains("canonical") && !WebItemBuilder.isBlank(tag.href) {
            switch URLPolicy.web.decide(tag.href, base: baseURL) {
            case .accepted(let url):
                return url
            case .refused(let reason):
                findings.append(
                    .refusedURL(URLRefusal(source: "rel=canonical", value: tag.href, reason: reason, line: tag.line)))
            }
        }
        return nil
    }

    /// The `<meta property="…">` tags with that key, in order.
    func metaTags(property: String) -> [MetaTag] {
        let wanted = property.lowercasedIfNeeded()
        return metaTags.filter { $0.kind == .property && $0.key == wanted }
    }

    /// The `<meta name="…">` tags with that key, in order.
    func metaTags(name: String) -> [MetaTag] {
        let wanted = name.lowercasedIfNeeded()
        return metaTags.filter { $0.kind == .name && $0.key == wanted }
    }
}
