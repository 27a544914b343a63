/// A node of an ``HTMLDocument``, valid only while its document is alive (it holds the document
/// without counting a reference, so walking the tree does no reference counting).
///
/// Reads names, attributes and text in the document's own bytes; a `String` is made only where one is
/// asked for.
struct HTMLNode {
    unowned(unsafe) let document: HTMLDocument
    let index: Int32

    private var node: HTMLDocument.Node { document.nodes[Int(index)] }

    private func node(_ index: Int32) -> HTMLNode? {
        index >= 0 ? HTMLNode(document: document, index: index) : nil
    }

    /// Whether this is an element.
    var isElement: Bool { node.kind == .element }
    /// Whether this is text or CDATA.
    var isText: Bool { node.kind.isText }

    /// The lowercase element name (libxml2's HTML parser lowercases names); `""` for other nodes.
    var name: String {
        let node = node
        guard node.kind == .element else { return "" }
        return string(start: node.start, length: node.length)
    }

    /// The node's name packed for a table look-up, `nil` when it is no element or has a longer name.
    var packedName: PackedName? { node.packedName }

    /// The 1-based source line: for an element, the line its start tag ends on.
    var line: Int { Int(node.line) }

    var firstChild: HTMLNode? { node(node.firstChild) }
    var lastChild: HTMLNode? { node(node.lastChild) }
    var nextSibling: HTMLNode? { node(node.next) }
    var previousSibling: HTMLNode? { node(node.previous) }
    var parent: HTMLNode? { node(node.parent) }

    /// Whether the element has any attribute (most elements have none, and need no look-up).
    var hasAttributes: Bool { node.attributeCount > 0 }

    /// Calls `body` with each child from the last to the first: what a depth-first walk with an
    /// explicit stack pushes so that it pops the children in document order, without an array.
    func forEachChildReversed(_ body: (HTMLNode) -> Void) {
        var child = node.lastChild
        while child >= 0 {
            body(HTMLNode(document: document, index: child))
            child = document.nodes[Int(child)].previous
        }
    }

    /// The children, in order.
    var children: some Sequence<HTMLNode> {
        sequence(first: firstChild) { $0?.nextSibling }.lazy.compactMap { $0 }
    }

    /// The text of a text or CDATA node; `""` for other nodes.
    var text: String {
        let node = node
        guard node.kind.isText else { return "" }
        return string(start: node.start, length: node.length)
    }

    /// Calls `body` with the UTF-8 bytes of a text node, borrowed from the document (no String made).
    func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let node = node
        let length = node.kind.isText ? Int(node.length) : 0
        return body(UnsafeBufferPointer(rebasing: document.bytes[Int(node.start)..<Int(node.start) + length]))
    }

    /// The value of attribute `name` (lowercase), or `nil` when absent. A present attribute
    /// without a value is `""`.
    func attribute(_ name: String) -> String? {
        attributeIndex(name).map { index in
            let attribute = document.attributes[index]
            return string(start: attribute.valueStart, length: attribute.valueLength)
        }
    }

    /// Whether attribute `name` is present (its value is not read).
    func hasAttribute(_ name: String) -> Bool {
        attributeIndex(name) != nil
    }

    /// Every attribute as `(name, value)`, in document order.
    var attributes: [(name: String, value: String)] {
        let node = node
        return (Int(node.attributeStart)..<Int(node.attributeStart + node.attributeCount)).map { index in
            let attribute = document.attributes[index]
            return (
                string(start: attribute.nameStart, length: attribute.nameLength),
                string(start: attribute.valueStart, length: attribute.valueLength)
            )
        }
    }

    /// The concatenated text of every descendant text node, in document order
    /// (the DOM's `textContent`), without recursion.
    var textContent: String {
        var result: [UInt8] = []
        var stack: [HTMLNode] = [self]
        while let node = stack.popLast() {
            if node.isText {
                node.withTextBytes { result.append(contentsOf: $0) }
            } else {
                node.forEachChildReversed { stack.append($0) }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The place in the document's attributes of the first attribute named `name`, compared ignoring
    /// ASCII case in the document's bytes.
    private func attributeIndex(_ name: String) -> Int? {
        let node = node
        guard node.attributeCount > 0 else { return nil }
        // The name's own UTF-8 storage, read in place: `UTF8View`'s iterator cost more than the comparison.
        var name = name
        return name.withUTF8 { wanted in
            let bytes = document.bytes
            for index in Int(node.attributeStart)..<Int(node.attributeStart + node.attributeCount) {
                let attribute = document.attributes[index]
                guard Int(attribute.nameLength) == wanted.count else { continue }
                let start = Int(attribute.nameStart)
                var equal = true
                for offset in 0..<wanted.count where bytes[start + offset] | 0x20 != wanted[offset] | 0x20 {
                    equal = false
                    break
                }
                if equal { return index }
            }
            return nil
        }
    }

    private func string(start: Int32, length: Int32) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: document.bytes[Int(start)..<Int(start + length)]), as: UTF8.self)
    }
}
