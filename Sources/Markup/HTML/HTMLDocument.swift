internal import CLibXML2

/// A parsed HTML document: the tree libxml2's HTML parser reports through SAX, kept in three flat
/// arrays (nodes, attributes, and the bytes of every name, value and text) instead of libxml2's
/// node-per-allocation tree.
///
/// libxml2 2.9's own tree builder (`xmlSAX2StartElement` and friends) allocated each node, name,
/// attribute and text separately, registered IDs in a hash table, and `xmlFreeDoc` then freed them one
/// by one: about a fifth of the parse. The parser itself (tokenizing, HTML 4 error recovery, implied
/// and auto-closed elements, entities) is still libxml2's, and the tree has the same shape its builder
/// gives (see ``HTMLTreeBuilder``).
///
/// Nodes refer to their document without counting references (``HTMLNode``), so a document never
/// leaves the synchronous function that parsed it: callers use
/// ``HTMLDocument/withDocument(utf8:url:_:)``, walk the tree and return a `Sendable` value.
final class HTMLDocument {
    /// One node: an element, a run of text or CDATA (script and style content), or anything else the
    /// parser reports (a comment, a processing instruction), which only separates text runs.
    struct Node {
        enum Kind: UInt8 {
            case element, text, cdata, other

            /// Text or CDATA: a run of characters.
            var isText: Bool { self == .text || self == .cdata }
        }

        var kind: Kind
        /// Set when the node is linked into the tree.
        var parent: Int32 = -1
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var next: Int32 = -1
        var previous: Int32 = -1
        /// The 1-based line the parser was on when it reported the node (for an element, the line its
        /// start tag ends on).
        var line: Int32
        /// The element's name (lowercase, as the parser gives it) or the text, in ``bytes``.
        var start: Int32
        var length: Int32
        /// The element's attributes, in ``attributes``.
        var attributeStart: Int32 = 0
        var attributeCount: Int32 = 0
        /// The element's name packed for table look-ups; `nil` for a longer name or another kind.
        var packedName: PackedName?
    }

    /// One attribute: its name (lowercase) and value, in ``bytes``. A present attribute without a value
    /// has an empty one.
    struct Attribute {
        var nameStart: Int32
        var nameLength: Int32
        var valueStart: Int32
        var valueLength: Int32
    }

    // Buffers of the document's own (the builder's, taken over), not arrays: a node reads them through
    // a reference it does not count, and an array read that way is retained and released at every access.
    let nodes: UnsafeMutableBufferPointer<Node>
    let attributes: UnsafeMutableBufferPointer<Attribute>
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The first element at the top of the document (`<html>`, which the parser always implies).
    let rootIndex: Int32?

    /// Takes over the builder's memory.
    init(_ builder: HTMLTreeBuilder) {
        nodes = builder.nodes.elements
        attributes = builder.attributes.elements
        bytes = builder.bytes.elements
        rootIndex = builder.rootIndex
    }

    deinit {
        nodes.deallocate()
        attributes.deallocate()
        bytes.deallocate()
    }

    /// Options for every parse (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-HTMLparser.html#htmlParserOption):
    /// recover from broken markup, never touch the network, print nothing, and ignore any
    /// `<meta charset>` in the text: the bytes were decoded to UTF-8 before libxml2 sees them.
    private static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | HTML_PARSE_NODEFDTD.rawValue)

    /// libxml2's one-time set-up, run before the first parse (a `static let` is initialised once,
    /// thread-safely). "In case of use in multithreaded programs" it must run before threads parse
    /// (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html#xmlInitParser):
    /// left to happen lazily, two first parses at once race in `xmlDictCreate` → `__xmlRandom`,
    /// which creates the dictionary mutex twice, and both threads then wait on it forever.
    static let libraryInitialized: Void = xmlInitParser()

    /// The most bytes of a page parsed; the rest is left out. The tree keeps positions in 32 bits and can
    /// hold about twice its input (a valueless boolean attribute gets its name again as its value), so
    /// this keeps it well inside them; fetched pages are far smaller (`--max-body-size`).
    static let maxInputBytes = 256 << 20

    /// Parses UTF-8 HTML (its first ``maxInputBytes``) and runs `body` with the document, which is freed
    /// when `body` returns. Returns `nil` when libxml2 could not start a parse (empty input, no memory).
    static func withDocument<Result>(
        utf8 html: [UInt8], url: String, _ body: (HTMLDocument) throws -> Result
    ) rethrows -> Result? {
        _ = libraryInitialized
        // A per-call parser context keeps error state out of libxml2's globals
        // (libxml2 2.9 has no xmlCtxtSetErrorHandler).
        guard !html.isEmpty, let context = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(context) }
        guard let handler = context.pointee.sax else { return nil }
        HTMLTreeBuilder.install(in: handler)
        let builder = UnsafeMutablePointer<HTMLTreeBuilder>.allocate(capacity: 1)
        builder.initialize(to: HTMLTreeBuilder(expectedBytes: min(html.count, maxInputBytes)))
        defer { builder.deallocate() }
        context.pointee._private = UnsafeMutableRawPointer(builder)
        let leftover: htmlDocPtr? = html.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                url.withCString { url in
                    let count = Int32(min(chars.count, maxInputBytes))
                    return htmlCtxtReadMemory(context, chars.baseAddress, count, url, "UTF-8", options)
                }
            }
        }
        // The handler builds no libxml2 document; free one should a later libxml2 make it anyway.
        if let leftover { xmlFreeDoc(leftover) }
        return try body(HTMLDocument(builder.move()))
    }

    /// The root element (`<html>`), if any.
    var root: HTMLNode? {
        rootIndex.map { HTMLNode(document: self, index: $0) }
    }
}

@available(*, unavailable, message: "a document stays in the function that parsed it")
extension HTMLDocument: Sendable {}
