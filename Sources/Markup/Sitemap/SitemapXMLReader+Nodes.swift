internal import CLibXML2
import Foundation

/// Reading names, text and lines off the reader's current node and off tree nodes, without any
/// allocation libxml2 would need freed (only `Const` accessors and the node structs themselves).
extension SitemapXMLReader {
    /// The reader's current element, with `href` and `rel` for a `<link>`.
    func currentElement(depth: Int) -> SitemapEntryScanner.Element {
        let name = Self.string(xmlTextReaderConstLocalName(reader), limit: 200)
        let namespace = xmlTextReaderConstNamespaceUri(reader).map(namespaceString)
        var element = SitemapEntryScanner.Element(
            localName: name, namespace: namespace, depth: depth, line: currentLine)
        if name == "link" {
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                // Only unprefixed attributes: a foreign `x:href` is not Atom's.
                guard xmlTextReaderConstNamespaceUri(reader) == nil else { continue }
                let value = xmlTextReaderConstValue(reader)
                set(Self.string(xmlTextReaderConstLocalName(reader), limit: 20), value, of: &element)
            }
            xmlTextReaderMoveToElement(reader)
        }
        return element
    }

    /// The namespace URI at `pointer`, which the reader interns in its dictionary (`xmlTextReaderConstNamespaceUri`
    /// returns `xmlTextReaderConstString`'s copy, alive as long as the reader): the same pointer is the same
    /// text, so a sitemap's one namespace becomes a `String` once, not once per element.
    private func namespaceString(_ pointer: UnsafePointer<xmlChar>) -> String {
        if let last = lastNamespace, last.pointer == pointer { return last.value }
        let value = Self.string(pointer, limit: 2048)
        lastNamespace = (pointer, value)
        return value
    }

    /// A tree node's element, with `href` and `rel` for a `<link>` (the recovery walk's counterpart of
    /// ``currentElement(depth:)``).
    func element(of node: xmlNodePtr, depth: Int) -> SitemapEntryScanner.Element {
        let name = Self.string(node.pointee.name, limit: 200)
        let namespace = node.pointee.ns.flatMap { $0.pointee.href }.map { Self.string($0, limit: 2048) }
        var element = SitemapEntryScanner.Element(
            localName: name, namespace: namespace, depth: depth, line: Self.line(of: node))
        if name == "link" {
            var attribute = node.pointee.properties
            while let current = attribute {
                attribute = current.pointee.next
                // An attribute's value is its text children; for href and rel one text node.
                guard current.pointee.ns == nil, let text = current.pointee.children else { continue }
                set(Self.string(current.pointee.name, limit: 20), text.pointee.content, of: &element)
            }
        }
        return element
    }

    private func set(
        _ attribute: String, _ value: UnsafePointer<xmlChar>?, of element: inout SitemapEntryScanner.Element
    ) {
        switch attribute {
        case "href": element.href = Self.string(value, limit: textLimit)
        case "rel": element.rel = Self.string(value, limit: 200).trimmingSpaces()
        default: break
        }
    }

    /// The 1-based line of the reader's current node. libxml2 2.9 stores at most 65,535 in a node
    /// (`xmlGetLineNo`); past that the parser's own line stands in, a little ahead of the node.
    var currentLine: Int? {
        if let node = xmlTextReaderCurrentNode(reader), let line = Self.line(of: node) { return line }
        let parser = Int(xmlTextReaderGetParserLineNumber(reader))
        return parser > 0 ? parser : nil
    }

    /// The line libxml2 stored in `node`, when it is exact (below 65,535).
    static func line(of node: xmlNodePtr) -> Int? {
        let stored = xmlGetLineNo(node)
        return stored > 0 && stored < 65535 ? Int(stored) : nil
    }

    /// Bytes of one text node taken: enough for any URL the limits accept (the scanner caps what it keeps).
    var textLimit: Int { scanner.collector.limits.maxURLLength + 256 }

    /// A libxml2 string (UTF-8), at most `limit` bytes of it.
    static func string(_ pointer: UnsafePointer<xmlChar>?, limit: Int) -> String {
        guard let pointer else { return "" }
        let length = pointer.withMemoryRebound(to: CChar.self, capacity: 1) { strnlen($0, limit) }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}
