import Foundation

/// Reads a page the way Applebot does: one libxml2 parse, one walk that collects titles,
/// meta and link tags, links, JSON-LD text, robots directives and visible text, then the
/// microdata and RDFa algorithms over the same tree, all before the tree is freed.
package enum PageExtractor {
    /// The most visible text kept for snippets, in characters.
    package static let maxTextLength = 20_000

    /// The longest URL kept, in bytes of UTF-8, once resolved: a longer link or link tag is
    /// dropped and a longer `<base href>` ignored, each reported in ``PageMarkup/issues``.
    package static let maxURLLength = 4096

    /// The most `<a href>`/`<area href>` elements read per page, in document order; the rest are
    /// counted in one issue.
    package static let maxLinks = 10_000

    /// The most bytes of URLs the kept links of a page hold together (4 MiB); the links from
    /// the first one that would pass it on are counted in one issue.
    package static let maxLinkBytes = 4 * 1024 * 1024

    /// The most references kept in ``PageMarkup/unresolvedReferences``, link tags first, then
    /// links, each in document order.
    package static let maxUnresolvedReferences = 100

    /// The most characters of each of ``PageMarkup/unresolvedReferences`` kept.
    package static let maxUnresolvedReferenceLength = 512

    /// The most `<link rel href>` elements read per page, in document order; the rest are
    /// counted in one issue.
    package static let maxLinkTags = 1_000

    /// Extracts from UTF-8 HTML.
    /// - Parameters:
    ///   - html: The page as UTF-8 bytes (decode other charsets first).
    ///   - url: The page URL: links resolve against it (or against `<base href>`).
    ///   - robotsHeaders: The values of any `X-Robots-Tag` response headers.
    package static func extract(utf8 html: [UInt8], url: String, robotsHeaders: [String] = []) -> PageMarkup {
        var markup = PageMarkup(url: url)
        for header in robotsHeaders { markup.robots.applyHeader(header) }
        let parsed: Void? = HTMLDocument.withDocument(utf8: html, url: url) { document in
            guard let root = document.root else { return }
            var walker = PageWalker(pageURL: url)
            walker.walk(root)
            walker.finish(into: &markup)
            if walker.sawMicrodata {
                var reader = MicrodataReader(walker: walker)
                markup.microdata = reader.items(in: root)
                markup.issues += reader.issues
            }
            if walker.sawRDFa {
                markup.rdfa = RDFaReader(resolver: walker.resolver).items(in: root)
            }
        }
        if parsed == nil {
            markup.issues.append(MarkupIssue(kind: "html", message: "the page is empty or has no HTML to parse"))
        } else if html.count > HTMLDocument.maxInputBytes {
            markup.issues.append(
                MarkupIssue(
                    kind: "html",
                    message: "the page has \(html.count) bytes; only the first \(HTMLDocument.maxInputBytes) were read")
            )
        }
        // Each block on its own: one broken block never costs its siblings.
        for script in markup.jsonLDScripts {
            switch JSONLD.parse(script.text, startLine: script.line) {
            case .success(let block):
                markup.jsonLD.append(block)
                for repair in block.repairs {
                    markup.issues.append(MarkupIssue(kind: "jsonld-repaired", message: repair, line: block.line))
                }
            case .failure(let error):
                let column = error.column.map { ", column \($0)" } ?? ""
                markup.issues.append(
                    MarkupIssue(kind: "jsonld", message: "invalid JSON-LD\(column): \(error.message)", line: error.line)
                )
            }
        }
        return markup
    }
}

/// The single walk over the tree. Not `Sendable`: it holds nodes of a document that lives only
/// inside `HTMLDocument.withDocument`.
struct PageWalker {
    private(set) var resolver: URLResolver
    private var title: String?
    private var metaTags: [MetaTag] = []
    private var links = LinkCollector()
    private var scripts: [ScriptText] = []
    private var executableScripts = PageScripts()
    private var text = VisibleText(limit: PageExtractor.maxTextLength)
    private(set) var sawMicrodata = false
    private(set) var sawRDFa = false
    /// Elements with an `id`, first occurrence wins (for microdata `itemref`).
    private(set) var elementsByID: [String: HTMLNode] = [:]
    /// The number of elements walked.
    private(set) var elementCount = 0

    init(pageURL: String) {
        resolver = URLResolver(base: pageURL)
    }

    /// Depth-first, in document order, with an explicit stack (hostile pages nest deeply). A
    /// visible element is pushed twice: to enter it, and (below its children) to leave it, so the
    /// visible text sees where elements end as well as where they start.
    mutating func walk(_ root: HTMLNode) {
        var stack: [(node: HTMLNode, hidden: Bool, inMain: Bool, leaving: VisibleText.ElementTraits?)] = [
            (root, false, false, nil)
        ]
        while let (node, hidden, inMain, leaving) = stack.popLast() {
            if node.isText {
                if !hidden { node.withTextBytes { text.append($0, inMain: inMain) } }
                continue
            }
            guard node.isElement else { continue }
            if let leaving {
                text.elementEnds(leaving, inMain: inMain)
                continue
            }
            let role = Self.role(of: node)
            let traits = role.traits
            elementCount += 1
            visit(node, kind: role.kind)
            let hideChildren = hidden || VisibleText.hides(node, traits: traits, inMain: inMain)
            let childInMain = inMain || traits.contains(.main)
            if !hideChildren {
                text.elementStarts(traits, inMain: inMain)
                stack.append((node, false, inMain, traits))
            }
            // Last child first, so the first child is popped next: document order, no temporary array.
            var child = node.lastChild
            while let current = child {
                stack.append((current, hideChildren, childInMain, nil))
                child = current.previousSibling
            }
        }
    }

    private mutating func visit(_ node: HTMLNode, kind: ElementRole.Kind) {
        if node.hasAttributes { noteAttributes(of: node) }
        switch kind {
        case .base:
            if let href = node.attribute("href") { links.addBase(href: href, line: node.line) }
        case .title:
            if title == nil, !isInsideSVG(node) { title = node.textContent.collapsingWhitespace() }
        case .meta:
            visitMeta(node)
        case .link:
            if let rel = node.attribute("rel"), let href = node.attribute("href") {
                links.addLinkTag(
                    node, rel: rel.lowercased().splitOnSpaces().map(String.init), href: href)
            }
        case .anchor:
            if let href = node.attribute("href") {
                let rel = Set((node.attribute("rel") ?? "").lowercased().splitOnSpaces())
                let nofollow = rel.contains("nofollow") || rel.contains("ugc") || rel.contains("sponsored")
                links.addLink(href: href, nofollow: nofollow, line: node.line)
            }
        case .script:
            let type = (node.attribute("type") ?? "").trimmingSpaces().lowercased()
            if type == "application/ld+json" || type.hasPrefix("application/ld+json;") {
                scripts.append(ScriptText(text: node.textContent, line: node.line))
            } else if PageScripts.isExecutable(type: type) {
                executableScripts.count += 1
                if let src = node.attribute("src") { links.addScript(src: src) }
            }
        case .other:
            break
        }
    }

    /// `id` for `itemref`, and whether the page has microdata or RDFa at all.
    private mutating func noteAttributes(of node: HTMLNode) {
        if let id = node.attribute("id"), !id.isEmpty, elementsByID[id] == nil {
            elementsByID[id] = node
            if !executableScripts.hasEmptyApplicationRoot, PageScripts.applicationRootIDs.contains(id),
                Self.isEmpty(node)
            {
                executableScripts.hasEmptyApplicationRoot = true
            }
        }
        if !sawMicrodata, node.hasAttribute("itemscope") { sawMicrodata = true }
        if !sawRDFa, node.hasAttribute("typeof") || node.hasAttribute("vocab") || node.hasAttribute("property") {
            sawRDFa = true
        }
    }

    private mutating func visitMeta(_ node: HTMLNode) {
        let line = node.line
        let content = node.attribute("content") ?? ""
        if let name = node.attribute("name") {
            metaTags.append(MetaTag(kind: .name, key: name.trimmingSpaces().lowercased(), content: content, line: line))
        }
        if let property = node.attribute("property") {
            // RDFa allows several space-separated properties on one tag.
            for token in property.lowercased().splitOnSpaces() {
                metaTags.append(MetaTag(kind: .property, key: String(token), content: content, line: line))
            }
        }
        if let equiv = node.attribute("http-equiv") {
            metaTags.append(
                MetaTag(kind: .httpEquiv, key: equiv.trimmingSpaces().lowercased(), content: content, line: line))
        }
        if let charset = node.attribute("charset") {
            metaTags.append(MetaTag(kind: .charset, key: charset.trimmingSpaces(), content: charset, line: line))
        }
    }

    /// No child element, and no text but white space: what a framework's root is before its script runs.
    /// Looks at the node's own children only, so the walk stays linear.
    private static func isEmpty(_ node: HTMLNode) -> Bool {
        var child = node.firstChild
        while let current = child {
            if current.isElement { return false }
            if current.isText, current.withTextBytes({ $0.contains { $0 != 0x20 && !(0x09...0x0D).contains($0) } }) {
                return false
            }
            child = current.nextSibling
        }
        return true
    }

    private func isInsideSVG(_ node: HTMLNode) -> Bool {
        var current = node.parent
        while let ancestor = current, ancestor.isElement {
            if ancestor.name == "svg" { return true }
            current = ancestor.parent
        }
        return false
    }

    /// Resolves what depended on `<base href>` and moves the results into `markup`.
    mutating func finish(into markup: inout PageMarkup) {
        resolver = links.resolve(against: resolver, into: &markup)
        markup.title = title.flatMap { $0.isEmpty ? nil : $0 }
        markup.metaTags = metaTags
        markup.jsonLDScripts = scripts
        markup.scripts = executableScripts
        markup.scripts.sources = links.scriptSources(resolver)
        markup.text = text.result
        for tag in metaTags where tag.kind == .name && (tag.key == "robots" || tag.key == "applebot") {
            markup.robots.apply(tag.content)
        }
    }
}

/// The document order of every element, for sorting microdata properties into tree order:
/// computed only for pages whose items use `itemref`.
enum DocumentOrder {
    static func of(_ root: HTMLNode) -> [NodeKey: Int] {
        var order: [NodeKey: Int] = [:]
        var stack = [root]
        while let node = stack.popLast() {
            guard node.isElement else { continue }
            order[NodeKey(node)] = order.count + 1
            var child = node.lastChild
            while let current = child {
                stack.append(current)
                child = current.previousSibling
            }
        }
        return order
    }
}

/// A hashable key for a node of the document being read.
struct NodeKey: Hashable {
    let index: Int32
    init(_ node: HTMLNode) { index = node.index }
}
