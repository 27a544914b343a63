internal import CLibXML2

/// A borrowed view of a libxml2 node, valid only while its ``HTMLDocument`` is alive.
///
/// Reads names, attributes and text without allocating through libxml2 (no `xmlGetProp`,
/// whose results would need `xmlFree`): attribute values are the text children of
/// `xmlAttr`, names are borrowed C strings copied into Swift strings.
struct HTMLNode {
    let pointer: xmlNodePtr

    /// Whether this is an element.
    var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }
    /// Whether this is text or CDATA.
    var isText: Bool { pointer.pointee.type == XML_TEXT_NODE || pointer.pointee.type == XML_CDATA_SECTION_NODE }

    /// The lowercase element name (libxml2's HTML parser lowercases names).
    var name: String {
        guard let name = pointer.pointee.name else { return "" }
        return String(cString: name)
    }

    /// The 1-based source line libxml2 recorded (65535 at most in libxml2 2.9).
    var line: Int { Int(xmlGetLineNo(pointer)) }

    var firstChild: HTMLNode? { pointer.pointee.children.map(HTMLNode.init) }
    var lastChild: HTMLNode? { pointer.pointee.last.map(HTMLNode.init) }
    var nextSibling: HTMLNode? { pointer.pointee.next.map(HTMLNode.init) }
    var previousSibling: HTMLNode? { pointer.pointee.prev.map(HTMLNode.init) }
    var parent: HTMLNode? { pointer.pointee.parent.map(HTMLNode.init) }

    /// Whether the element has any attribute (most elements have none, and need no look-up).
    var hasAttributes: Bool { pointer.pointee.properties != nil }

    /// Calls `body` with each child from the last to the first: what a depth-first walk with an
    /// explicit stack pushes so that it pops the children in document order, without an array.
    func forEachChildReversed(_ body: (HTMLNode) -> Void) {
        var child = pointer.pointee.last
        while let current = child {
            body(HTMLNode(pointer: current))
            child = current.pointee.prev
        }
    }

    /// The children, in order.
    var children: some Sequence<HTMLNode> {
        sequence(first: firstChild) { $0?.nextSibling }.lazy.compactMap { $0 }
    }

    /// The text of a text node.
    var text: String {
        guard let content = pointer.pointee.content else { return "" }
        return String(cString: content)
    }

    /// Calls `body` with the UTF-8 bytes of a text node, borrowed from libxml2 (no String made).
    func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard let content = pointer.pointee.content else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
    }

    /// The value of attribute `name` (lowercase), or `nil` when absent. A present attribute
    /// without a value is `""`.
    func attribute(_ name: String) -> String? {
        var attribute = pointer.pointee.properties
        while let current = attribute {
            if let attributeName = current.pointee.name, Self.equals(attributeName, name) {
                return Self.value(of: current)
            }
            attribute = current.pointee.next
        }
        return nil
    }

    /// Whether attribute `name` is present (its value is not read).
    func hasAttribute(_ name: String) -> Bool {
        var attribute = pointer.pointee.properties
        while let current = attribute {
            if let attributeName = current.pointee.name, Self.equals(attributeName, name) { return true }
            attribute = current.pointee.next
        }
        return false
    }

    /// Every attribute as `(name, value)`, in document order.
    var attributes: [(name: String, value: String)] {
        var result: [(String, String)] = []
        var attribute = pointer.pointee.properties
        while let current = attribute {
            if let name = current.pointee.name {
                result.append((String(cString: name), Self.value(of: current)))
            }
            attribute = current.pointee.next
        }
        return result
    }

    /// The concatenated text of every descendant text node, in document order
    /// (the DOM's `textContent`), without recursion.
    var textContent: String {
        var result = ""
        var stack: [HTMLNode] = [self]
        while let node = stack.popLast() {
            if node.isText {
                result += node.text
            } else {
                node.forEachChildReversed { stack.append($0) }
            }
        }
        return result
    }

    private static func value(of attribute: xmlAttrPtr) -> String {
        var result = ""
        var child = attribute.pointee.children
        while let current = child {
            if let content = current.pointee.content { result += String(cString: content) }
            child = current.pointee.next
        }
        return result
    }

    /// Compares a libxml2 name with a lowercase ASCII Swift string, ignoring ASCII case.
    private static func equals(_ cName: UnsafePointer<xmlChar>, _ name: String) -> Bool {
        // The name's own UTF-8 storage, read in place: `UTF8View`'s iterator cost more than the comparison.
        var name = name
        return name.withUTF8 { bytes in
            for index in bytes.indices {
                let c = cName[index]
                guard c != 0, c | 0x20 == bytes[index] | 0x20 else { return false }
            }
            return cName[bytes.count] == 0
        }
    }
}
