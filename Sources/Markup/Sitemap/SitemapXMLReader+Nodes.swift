internal import CLibXML2
import Foundation

/// Turning what the parser hands a callback into the scanner's elements and text, without any allocation
/// libxml2 would need freed: names, namespaces and attribute values are borrowed for the callback.
extension SitemapXMLReader {
    /// The element a start tag opens, at the current depth, with `href` and `rel` for a `<link>`.
    /// `attributes` holds five pointers per attribute: local name, prefix, URI, value start, value end.
    func element(
        localName: UnsafePointer<xmlChar>?, namespace: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int
    ) -> SitemapEntryScanner.Element {
        let name = Self.string(localName, limit: 200)
        var element = SitemapEntryScanner.Element(
            localName: name, namespace: namespace.map(namespaceString), depth: depth,
            line: currentLine)
        if name == "link", let attributes {
            for index in 0..<count {
                let fields = attributes + 5 * index
                // Only unprefixed attributes: a foreign `x:href` is not Atom's.
                guard fields[2] == nil, let start = fields[3], let end = fields[4] else { continue }
                let value = UnsafeBufferPointer(start: start, count: max(0, end - start))
                switch Self.string(fields[0], limit: 20) {
                case "href": element.href = Self.string(value, limit: textLimit)
                case "rel": element.rel = Self.string(value, limit: 200).trimmingSpaces()
                default: break
                }
            }
        }
        return element
    }

    /// A run of text (or white space, or CDATA) inside the innermost open element, to the scanner when
    /// it wants it. Whether the run is white space only is asked only where it matters: directly inside
    /// an entry, before any text of the entry's own.
    func deliverText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard scanner.wantsText(atDepth: depth) else { return }
        if !scanner.wantsText(atDepth: depth, isWhitespace: true),
            bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        {
            return
        }
        scanner.text(Self.string(bytes, limit: textLimit), atDepth: depth)
    }

    /// The namespace URI at `pointer`, which the parser interns in its dictionary: the same pointer is the
    /// same text for the whole parse, so a sitemap's one namespace becomes a `String` once, not once per
    /// element. A pointer the dictionary does not own is read every time.
    private func namespaceString(_ pointer: UnsafePointer<xmlChar>) -> String {
        if let last = lastNamespace, last.pointer == pointer { return last.value }
        let value = Self.string(pointer, limit: 2048)
        if xmlDictOwns(context.pointee.dict, pointer) == 1 { lastNamespace = (pointer, value) }
        return value
    }

    /// A NUL-terminated libxml2 string (UTF-8), at most `limit` bytes of it.
    static func string(_ pointer: UnsafePointer<xmlChar>?, limit: Int) -> String {
        guard let pointer else { return "" }
        let length = pointer.withMemoryRebound(to: CChar.self, capacity: 1) { strnlen($0, limit) }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    /// At most `limit` bytes of `bytes`, as a string.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        String(decoding: bytes.prefix(limit), as: UTF8.self)
    }
}
