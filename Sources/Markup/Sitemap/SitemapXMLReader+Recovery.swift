internal import CLibXML2

/// What the parser read before a fatal error.
///
/// libxml2's reader parses ahead of the node it hands out (a chunk of up to 512 bytes at a time), and
/// after a well-formedness error `xmlTextReaderRead` only returns -1: the nodes parsed before the error
/// but not yet handed out would be lost — with a small file, all of them. They are still in the reader's
/// partial tree (the reader frees nodes behind the current one, never ahead of it), so this walks that
/// tree in document order from the last node delivered, as the loop would have. The tree holds at most
/// what one push of the parser built, never the document.
extension SitemapXMLReader {
    /// Delivers the nodes after ``delivered`` that the parser built before it stopped.
    func deliverRemainingTree() {
        var node: xmlNodePtr
        var depth: Int
        /// Whether `node`'s end is delivered (or it is not an element, so has none).
        var closed: Bool
        /// Whether `node`'s children were delivered already.
        var childrenDone = false
        if let current = xmlTextReaderCurrentNode(reader), let delivered {
            node = current
            switch delivered {
            case .openElement(let level):
                depth = level
                closed = false
            case .completeNode(let level):
                depth = level
                closed = true
            }
        } else {
            // The error came before the reader handed out anything: start at the root of the partial
            // document, which the reader then leaves to `deinit` to free.
            guard let document = xmlTextReaderCurrentDoc(reader) else { return }
            keptDocument = document
            guard let root = xmlDocGetRootElement(document) else { return }
            node = root
            depth = 0
            closed = false
            enter(root, depth: 0)
        }
        while !scanner.isDone {
            if !closed {
                if !childrenDone, let child = node.pointee.children {
                    node = child
                    depth += 1
                    closed = !Self.isElement(child)
                    enter(child, depth: depth)
                    continue
                }
                // An element the parser never closed ends the walk: nothing after its end was read.
                guard !isUnclosed(node) else { return }
                scanner.end(depth: depth)
                closed = true
            }
            if let next = node.pointee.next {
                node = next
                childrenDone = false
                closed = !Self.isElement(next)
                enter(next, depth: depth)
                continue
            }
            guard depth > 0, let parent = node.pointee.parent, Self.isElement(parent) else { return }
            node = parent
            depth -= 1
            childrenDone = true
            closed = false
        }
    }

    /// One node reached by the walk, as the node loop would have delivered it. Only elements are
    /// descended into: an entity reference's children are the entity's declaration, never its content.
    private func enter(_ node: xmlNodePtr, depth: Int) {
        switch node.pointee.type {
        case XML_ELEMENT_NODE:
            scanner.start(element(of: node, depth: depth), isEmpty: false)
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            if scanner.wantsText(atDepth: depth) {
                scanner.text(Self.string(node.pointee.content, limit: textLimit), atDepth: depth)
            }
        case XML_ENTITY_REF_NODE:
            scanner.entityReference(named: Self.string(node.pointee.name, limit: 200), line: Self.line(of: node))
        default:
            break
        }
    }

    /// Whether the parser had not seen `node`'s end tag when it stopped: `node` is the element it was
    /// inside, or an ancestor of it. Without that element from the error, the conservative guess: an element
    /// with no node after it at any level (the tree's last open branch) is taken as unclosed.
    private func isUnclosed(_ node: xmlNodePtr) -> Bool {
        if let open = openAtError {
            var current: xmlNodePtr? = open
            while let candidate = current, Self.isElement(candidate) {
                if candidate == node { return true }
                current = candidate.pointee.parent
            }
            return false
        }
        var current: xmlNodePtr? = node
        while let candidate = current, Self.isElement(candidate) {
            if candidate.pointee.next != nil { return false }
            current = candidate.pointee.parent
        }
        return true
    }

    private static func isElement(_ node: xmlNodePtr) -> Bool {
        node.pointee.type == XML_ELEMENT_NODE
    }
}
