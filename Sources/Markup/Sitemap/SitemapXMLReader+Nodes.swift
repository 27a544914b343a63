internal import CLibXML2
import Foundation

/// Turning what the parser hands a callback into the scanner's elements and text, without any allocation
/// libxml2 would need freed: names, namespaces and attribute values are borrowed for the callback.
extension SitemapXMLReader {
    /// Hands a start tag to the scanner: its name, namespace (by number), depth and line, with `href` and
    /// `rel` for a `<link>`; the root's name and namespace as written too. `attributes` holds five pointers
    /// per attribute: local name, prefix, URI, value start, value end.
    func start(
        localName: UnsafePointer<xmlChar>?, namespace: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int
    ) {
        let spelling = Self.bytes(localName, limit: 200)
        let name = SitemapEntryScanner.Name(spelling)
        let element = SitemapEntryScanner.Element(
            name: name, namespace: namespaceNumber(namespace), depth: depth, line: currentLine)
        if depth == 0 {
            scanner.startRoot(
                element, spelling: String(decoding: spelling, as: UTF8.self),
                namespaceURI: namespace.map { Self.string($0, limit: 2048) })
            return
        }
        guard name == .link, let attributes else {
            scanner.start(element)
            return
        }
        var link = SitemapEntryScanner.LinkAttributes()
        for index in 0..<count {
            let fields = attributes + 5 * index
            // Only unprefixed attributes: a foreign `x:href` is not Atom's.
            guard fields[2] == nil, let start = fields[3], let end = fields[4] else { continue }
            let value = UnsafeBufferPointer(start: start, count: max(0, end - start))
            switch Self.string(fields[0], limit: 20) {
            case "href": link.href = Self.string(value, limit: textLimit)
            case "rel": link.rel = Self.string(value, limit: 200).trimmingSpaces()
            default: break
            }
        }
        scanner.start(element, link: link)
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
        scanner.text(bytes, atDepth: depth)
    }

    /// The number of the namespace URI at `pointer` (0 for none): one number per distinct URI, in the
    /// order met. The parser interns URIs in its dictionary, so an element in the namespace of the one
    /// before it hands over the same pointer, and that is the whole cost; a pointer the dictionary does
    /// not own is read every time.
    private func namespaceNumber(_ pointer: UnsafePointer<xmlChar>?) -> Int {
        guard let pointer else { return 0 }
        if let last = lastNamespace, last.pointer == pointer { return last.number }
        let uri = Self.string(pointer, limit: 2048)
        let number: Int
        if let known = namespaces[uri] {
            number = known
        } else {
            number = namespaces.count + 1
            namespaces[uri] = number
        }
        if xmlDictOwns(context.pointee.dict, pointer) == 1 { lastNamespace = (pointer, number) }
        return number
    }

    /// A NUL-terminated libxml2 string (UTF-8), at most `limit` bytes of it.
    static func string(_ pointer: UnsafePointer<xmlChar>?, limit: Int) -> String {
        String(decoding: bytes(pointer, limit: limit), as: UTF8.self)
    }

    /// The bytes of a NUL-terminated libxml2 string, at most `limit` of them, borrowed for the callback.
    static func bytes(_ pointer: UnsafePointer<xmlChar>?, limit: Int) -> UnsafeBufferPointer<UInt8> {
        guard let pointer else { return UnsafeBufferPointer(start: nil, count: 0) }
        let length = pointer.withMemoryRebound(to: CChar.self, capacity: 1) { strnlen($0, limit) }
        return UnsafeBufferPointer(start: pointer, count: length)
    }

    /// At most `limit` bytes of `bytes`, as a string.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        String(decoding: bytes.prefix(limit), as: UTF8.self)
    }
}
