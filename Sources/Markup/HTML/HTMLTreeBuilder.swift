internal import CLibXML2

/// Builds an ``HTMLDocument`` from libxml2's HTML SAX events, giving the tree libxml2 2.9's own
/// builder (`xmlSAX2StartElement`, `xmlSAX2EndElement`, `xmlSAX2Text`, `xmlSAX2Comment`) gives:
///
/// - an element is named by its local name (``localName(_:length:)``) and becomes the last child of
///   the open element, and then the open element; its end reopens the element open before it; with none
///   open it goes where ``parentOfNextElement`` says; one nested deeper than ``maxDepth`` stops the parse;
/// - its attributes are kept in the parser's order with their values as given (entities already
///   replaced); a valueless boolean attribute (`checked`, `selected`…, `htmlIsBooleanAttr`) has its own
///   name as its value, any other valueless one an empty value;
/// - text, and CDATA (what the parser reports for script and style content), joins the open element's
///   last child when that is of the same kind, else starts a new node; outside any element it is
///   dropped; a run that would grow past ``maxTextLength`` stops the parse;
/// - a comment or processing instruction is a node of its own (it keeps the text on either side apart).
///
/// libxml2 calls back one event at a time on the parsing thread, through the parser context's
/// `_private` pointer (see ``HTMLDocument/withDocument(utf8:url:_:)``).
struct HTMLTreeBuilder {
    var nodes: GrowingBuffer<HTMLDocument.Node>
    var attributes: GrowingBuffer<HTMLDocument.Attribute>
    var bytes: GrowingBuffer<UInt8>
    var rootIndex: Int32?
    /// The elements started and not yet ended, innermost last (libxml2's node stack: an element's end
    /// reopens the one started before it, which is not always its parent).
    private var openElements: [Int32] = []
    /// The first and the last node at the top of the document.
    private var firstTopLevel: Int32 = -1
    private var lastTopLevel: Int32 = -1
    /// Whether the parser reported a `<!DOCTYPE>`.
    private var hasDoctype = false

    /// The open element, `-1` at the top.
    private var open: Int32 { openElements.last ?? -1 }

    /// The longest run of text or CDATA, libxml2's `XML_MAX_TEXT_LENGTH`: its builder stops the parse
    /// when joining a piece would make a run longer (without `XML_PARSE_HUGE`, which is not set).
    static let maxTextLength = 10_000_000

    /// The deepest element nesting, libxml2's `xmlParserMaxDepth`: its tree builder stops the parse at
    /// an element with more open around it (pages are far shallower; the walks over the tree are not
    /// recursive, but a bounded tree keeps their work bounded too).
    static let maxDepth = 256

    /// Buffers sized for an HTML page of `expectedBytes` (markup is mostly names and text: about one
    /// node per 30 bytes, its bytes fewer than the page's); past 4 MiB they start at that size and grow.
    init(expectedBytes: Int) {
        let sizing = min(expectedBytes, 4 << 20)
        nodes = GrowingBuffer(capacity: sizing / 30)
        attributes = GrowingBuffer(capacity: sizing / 60)
        bytes = GrowingBuffer(capacity: sizing)
    }

    /// Points the context's handler at the builder's callbacks; the rest of libxml2's defaults stay,
    /// but nothing that builds a libxml2 document.
    static func install(in handler: UnsafeMutablePointer<xmlSAXHandler>) {
        handler.pointee.startDocument = nil
        handler.pointee.endDocument = nil
        handler.pointee.internalSubset = saxInternalSubset
        handler.pointee.externalSubset = nil
        handler.pointee.startElement = saxStartElement
        handler.pointee.endElement = saxEndElement
        // `ignorableWhitespace` keeps libxml2's default, which keeps nothing (as its builder): the parser
        // only calls it with HTML_PARSE_NOBLANKS, which is not set; all white space comes as characters.
        handler.pointee.characters = saxCharacters
        handler.pointee.cdataBlock = saxCdataBlock
        handler.pointee.comment = saxComment
        handler.pointee.processingInstruction = saxProcessingInstruction
        handler.pointee.reference = nil
    }

    /// Stores `count` bytes from `source`; its start in ``bytes``.
    private mutating func store(_ source: UnsafePointer<UInt8>, count: Int) -> Int32 {
        let start = Int32(bytes.count)
        bytes.append(source, count: count)
        return start
    }

    /// Makes `node` the last child of `parent` (`-1`: the last top-level node); its index.
    private mutating func append(_ node: HTMLDocument.Node, to parent: Int32) -> Int32 {
        let index = Int32(nodes.count)
        var node = node
        node.parent = parent
        if parent >= 0 {
            let previous = nodes[Int(parent)].lastChild
            node.previous = previous
            if previous >= 0 { nodes[Int(previous)].next = index } else { nodes[Int(parent)].firstChild = index }
            nodes[Int(parent)].lastChild = index
        } else {
            node.previous = lastTopLevel
            if lastTopLevel >= 0 { nodes[Int(lastTopLevel)].next = index } else { firstTopLevel = index }
            lastTopLevel = index
            if node.kind == .element, rootIndex == nil { rootIndex = index }
        }
        nodes.append(node)
        return index
    }

    /// Where an element starting now goes: under the open element; with none open, at the top of an
    /// empty document, else, as libxml2 does, under the document's first node when that is an element
    /// (after `</html>`, more content lands in the root), and at the top when it is not (a doctype or a
    /// comment comes first).
    private var parentOfNextElement: Int32 {
        if open >= 0 { return open }
        guard !hasDoctype, firstTopLevel >= 0 else { return -1 }
        return nodes[Int(firstTopLevel)].kind == .element ? firstTopLevel : -1
    }

    /// Adds an element; `false`, adding nothing, when it would be nested deeper than ``maxDepth``: the
    /// parse must then stop, as libxml2's builder stops it.
    mutating func startElement(
        _ name: UnsafePointer<UInt8>, attributes pairs: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, line: Int32
    ) -> Bool {
        guard openElements.count <= Self.maxDepth else { return false }
        let (name, nameLength) = Self.localName(name, length: Int(xmlStrlen(name)))
        let nameStart = store(name, count: nameLength)
        let attributeStart = Int32(attributes.count)
        if let pairs {
            var index = 0
            while let attributeName = pairs[index] {
                let attributeNameLength = Int(xmlStrlen(attributeName))
                let attributeNameStart = store(attributeName, count: attributeNameLength)
                var value = pairs[index + 1]
                if value == nil, htmlIsBooleanAttr(attributeName) != 0 { value = attributeName }
                let valueLength = value.map { Int(xmlStrlen($0)) } ?? 0
                let valueStart = value.map { store($0, count: valueLength) } ?? Int32(bytes.count)
                attributes.append(
                    HTMLDocument.Attribute(
                        nameStart: attributeNameStart, nameLength: Int32(attributeNameLength), valueStart: valueStart,
                        valueLength: Int32(valueLength)))
                index += 2
            }
        }
        let node = HTMLDocument.Node(
            kind: .element, line: line, start: nameStart, length: Int32(nameLength),
            attributeStart: attributeStart, attributeCount: Int32(attributes.count) - attributeStart,
            packedName: PackedName(UnsafeBufferPointer(start: name, count: nameLength)))
        openElements.append(append(node, to: parentOfNextElement))
        return true
    }

    /// The part of an element's name after its first colon, as libxml2's builder names an element
    /// (`xmlSplitQName`: `<fb:like>` is a `like`; the prefix, undeclared in HTML, is dropped). A name that
    /// starts or ends with the colon is kept whole.
    static func localName(_ name: UnsafePointer<UInt8>, length: Int) -> (UnsafePointer<UInt8>, Int) {
        guard length > 2, name[0] != UInt8(ascii: ":"),
            let colon = UnsafeBufferPointer(start: name, count: length).firstIndex(of: UInt8(ascii: ":")),
            colon < length - 1
        else { return (name, length) }
        return (name + colon + 1, length - colon - 1)
    }

    mutating func endElement() {
        _ = openElements.popLast()
    }

    /// A `<!DOCTYPE>`: libxml2 makes it the document's first node.
    mutating func noteDoctype() {
        hasDoctype = true
    }

    /// Adds a run of text or CDATA to the open element; `false`, adding nothing, when joining it to the
    /// run before would make that longer than ``maxTextLength``: the parse must then stop.
    mutating func addText(_ text: UnsafePointer<UInt8>, count: Int, kind: HTMLDocument.Node.Kind, line: Int32)
        -> Bool
    {
        guard open >= 0, count > 0 else { return true }
        let last = nodes[Int(open)].lastChild
        if last >= 0, nodes[Int(last)].kind == kind {
            var node = nodes[Int(last)]
            guard Int(node.length) + count <= Self.maxTextLength else { return false }
            if Int(node.start + node.length) != bytes.count {
                // Something was stored after the run (not expected: only an element or a comment
                // could come between, and either would be the last child): move the run to the end.
                let moved = Int32(bytes.count)
                bytes.appendCopy(of: Int(node.start)..<Int(node.start + node.length))
                node.start = moved
            }
            _ = store(text, count: count)
            node.length += Int32(count)
            nodes[Int(last)] = node
            return true
        }
        let start = store(text, count: count)
        _ = append(
            HTMLDocument.Node(kind: kind, line: line, start: start, length: Int32(count)), to: open)
        return true
    }

    mutating func addOther(line: Int32) {
        _ = append(
            HTMLDocument.Node(kind: .other, line: line, start: Int32(bytes.count), length: 0), to: open)
    }

    /// The builder behind a callback's `ctx` (the parser context), and the line the parser is on.
    static func builder(_ ctx: UnsafeMutableRawPointer?) -> (UnsafeMutablePointer<HTMLTreeBuilder>, Int32)? {
        guard let ctx else { return nil }
        let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let raw = context.pointee._private else { return nil }
        let builder = raw.assumingMemoryBound(to: HTMLTreeBuilder.self)
        let line = context.pointee.input.map { Int32(clamping: $0.pointee.line) } ?? 0
        return (builder, line)
    }
}

/// `startElementSAXFunc`: `attributes` holds name and value pointers in turn, ended by a `NULL` name;
/// a value is `NULL` for an attribute written without one.
private func saxStartElement(
    _ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?,
    _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    guard let name, let (builder, line) = HTMLTreeBuilder.builder(ctx) else { return }
    if !builder.pointee.startElement(name, attributes: attributes, line: line) {
        stopParsing(ctx)
    }
}

/// `endElementSAXFunc`.
private func saxEndElement(_ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
    guard let (builder, _) = HTMLTreeBuilder.builder(ctx) else { return }
    builder.pointee.endElement()
}

/// `charactersSAXFunc`, also for white space.
private func saxCharacters(_ ctx: UnsafeMutableRawPointer?, _ text: UnsafePointer<xmlChar>?, _ length: Int32) {
    guard let text, let (builder, line) = HTMLTreeBuilder.builder(ctx) else { return }
    if !builder.pointee.addText(text, count: Int(length), kind: .text, line: line) {
        stopParsing(ctx)
    }
}

/// `cdataBlockSAXFunc`: script and style content.
private func saxCdataBlock(_ ctx: UnsafeMutableRawPointer?, _ text: UnsafePointer<xmlChar>?, _ length: Int32) {
    guard let text, let (builder, line) = HTMLTreeBuilder.builder(ctx) else { return }
    if !builder.pointee.addText(text, count: Int(length), kind: .cdata, line: line) {
        stopParsing(ctx)
    }
}

/// `internalSubsetSAXFunc`: a `<!DOCTYPE>`.
private func saxInternalSubset(
    _ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ externalID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?
) {
    guard let (builder, _) = HTMLTreeBuilder.builder(ctx) else { return }
    builder.pointee.noteDoctype()
}

/// `commentSAXFunc`.
private func saxComment(_ ctx: UnsafeMutableRawPointer?, _ text: UnsafePointer<xmlChar>?) {
    guard let (builder, line) = HTMLTreeBuilder.builder(ctx) else { return }
    builder.pointee.addOther(line: line)
}

/// `processingInstructionSAXFunc`.
private func saxProcessingInstruction(
    _ ctx: UnsafeMutableRawPointer?, _ target: UnsafePointer<xmlChar>?, _ data: UnsafePointer<xmlChar>?
) {
    guard let (builder, line) = HTMLTreeBuilder.builder(ctx) else { return }
    builder.pointee.addOther(line: line)
}

/// Stops the parse behind a callback's `ctx`, as libxml2's builder stops it at one of its limits.
private func stopParsing(_ ctx: UnsafeMutableRawPointer?) {
    xmlStopParser(ctx?.assumingMemoryBound(to: xmlParserCtxt.self))
}
