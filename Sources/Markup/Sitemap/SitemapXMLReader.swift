internal import CLibXML2

/// Reads one XML sitemap or feed with libxml2's SAX2 parser
/// (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html#xmlSAXHandler): the parser
/// calls back with each start tag, end tag and run of text as it reads, pulling the bytes from a
/// ``SitemapByteSource`` through its I/O callback, so neither the document nor any tree of its
/// elements is ever held. The one owner of its `xmlParserCtxtPtr`, freed in `deinit`.
///
/// Safe by construction: no entity is substituted (`XML_PARSE_NOENT` is never set), no DTD is loaded
/// or validated against, XInclude is off, and `XML_PARSE_NONET` forbids the network. libxml2's errors
/// go to a per-parser handler and become located issues; nothing is printed.
///
/// The parse stops at the first well-formedness error: everything before it has been delivered, as the
/// parser delivers as it goes, and nothing after it is read.
final class SitemapXMLReader {
    /// libxml2's parser options (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html#xmlParserOption):
    /// never touch the network, report nothing on stderr. Deliberately absent: NOENT (entity substitution),
    /// DTDLOAD, DTDATTR, DTDVALID, XINCLUDE, HUGE (libxml2's own size and depth limits stay on) and
    /// RECOVER (the parse stops at the first error, so what is kept is exactly what came before it).
    private static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    /// The SAX2 handler: libxml2's defaults (they keep the DTD's entity declarations, so a declared
    /// entity is a reference and not an error), with the element and text callbacks ours, so that no
    /// element node is ever built.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = startElement
        handler.endElementNs = endElement
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        handler.reference = reference
        handler.serror = recordError
        handler.comment = nil
        handler.processingInstruction = nil
        handler.startElement = nil
        handler.endElement = nil
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        return handler
    }

    var context: xmlParserCtxtPtr!
    // The four below are read and written by every callback, and only there: libxml2 calls back one at
    // a time on the parsing thread, and no access to them spans a call into libxml2 (the reader is not
    // `Sendable`). Swift's run-time exclusivity check, which cannot see that, cost more than the scanner's
    // own work per element; it is off for them.
    @exclusivity(unchecked) var scanner: SitemapEntryScanner
    /// The depth of the next element to start (the root's is 0).
    @exclusivity(unchecked) var depth = 0
    /// The last namespace URI the parser handed over, by its interned pointer, and its number (see
    /// `namespaceNumber`).
    @exclusivity(unchecked) var lastNamespace: (pointer: UnsafePointer<xmlChar>, number: Int)?
    /// The number of each distinct namespace URI met, from 1 in the order met: how the scanner knows a
    /// namespace. A table, not a list searched, so a file of a new namespace per element costs no more.
    @exclusivity(unchecked) var namespaces: [String: Int] = [:]
    private let source: SitemapByteSource

    private init(source: SitemapByteSource, collector: SitemapCollector) {
        self.source = source
        self.scanner = SitemapEntryScanner(collector: collector)
    }

    deinit {
        guard let context else { return }
        // The SAX2 defaults build a document for the DTD's declarations (no elements); it is the caller's.
        if let document = context.pointee.myDoc { xmlFreeDoc(document) }
        xmlFreeParserCtxt(context)
    }

    /// Reads the XML document `source` streams into `collector`.
    static func read(_ source: SitemapByteSource, into collector: inout SitemapCollector) {
        // libxml2's one-time set-up, shared with the HTML parser: two separate initializers could run
        // `xmlInitParser` on two threads at once, the race `HTMLDocument.libraryInitialized` describes.
        _ = HTMLDocument.libraryInitialized
        let reader = SitemapXMLReader(source: source, collector: collector)
        // The source outlives the parser: the caller holds it, and so does `reader.source`.
        let input = Unmanaged.passUnretained(source).toOpaque()
        var handler = makeHandler()
        // libxml2 copies the handler; the callbacks' `ctx` is the parser context (`userData` left unset).
        guard let context = xmlCreateIOParserCtxt(&handler, nil, readBytes, nil, input, XML_CHAR_ENCODING_NONE)
        else {
            collector.note(.malformedXML, "libxml2 could not start reading the document")
            return
        }
        reader.context = context
        context.pointee._private = Unmanaged.passUnretained(reader).toOpaque()
        xmlCtxtUseOptions(context, options)
        xmlParseDocument(context)
        reader.scanner.endOfInput()
        collector = reader.scanner.collector
    }

    /// Stops the parse once the scanner wants nothing more.
    func stopIfDone() {
        if scanner.isDone { xmlStopParser(context) }
    }

    /// The line the parser is on (the end of the construct just read).
    var currentLine: Int? {
        let line = Int(xmlSAX2GetLineNumber(context))
        return line > 0 ? line : nil
    }

    /// Bytes of one run of text taken: enough for any URL the limits accept (the scanner caps what it keeps).
    var textLimit: Int { scanner.textCapacity }

    /// One error libxml2 reported, as a located issue. Warnings are left out; so is everything after the
    /// byte limit cut the document (those are only the cut's consequences, reported once as `tooLarge`).
    /// Only a fatal error (well-formedness) stops the parse; a namespace error (an undeclared prefix such as
    /// `image:` without its `xmlns:image`, common in real sitemaps) is reported and reading goes on, as
    /// libxml2 itself goes on. An error from the context that checks an entity's content does not stop the
    /// parse either: the document's parser then reports the entity as failed, and that stops it.
    fileprivate func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        if error.level == XML_ERR_FATAL, error.ctxt == UnsafeMutableRawPointer(context) { xmlStopParser(context) }
        guard !source.exceededLimit else { return }
        let message = error.message.map { String(cString: $0).trimmingSpaces() } ?? "error \(error.code)"
        scanner.collector.note(.malformedXML, message, line: error.line > 0 ? Int(error.line) : nil)
    }

    /// The reader behind a callback's `ctx`, or `nil` for a context of libxml2's own: the one that checks
    /// an entity's content the first time it is referenced (entity `depth` above 0) calls the same
    /// handler, and that content is not the document's (entities are never substituted).
    fileprivate static func reader(_ ctx: UnsafeMutableRawPointer?, forErrors: Bool = false) -> SitemapXMLReader? {
        guard let ctx else { return nil }
        let parser = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard forErrors || parser.pointee.depth == 0, let reader = parser.pointee._private else { return nil }
        return Unmanaged<SitemapXMLReader>.fromOpaque(reader).takeUnretainedValue()
    }
}

@available(*, unavailable, message: "libxml2 parsers stay on the thread that created them")
extension SitemapXMLReader: Sendable {}

/// The parser's I/O callback (`xmlInputReadCallback`): the next bytes of the ``SitemapByteSource``
/// passed as context; 0 at the end.
private func readBytes(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ length: Int32)
    -> Int32
{
    guard let context, let buffer, length > 0 else { return -1 }
    let source = Unmanaged<SitemapByteSource>.fromOpaque(context).takeUnretainedValue()
    return Int32(source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
}

/// `startElementNsSAX2Func`: `attributes` holds five pointers per attribute (local name, prefix, URI,
/// value start, value end).
private func startElement(
    _ ctx: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ attributeCount: Int32, _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    guard let reader = SitemapXMLReader.reader(ctx) else { return }
    reader.start(localName: localName, namespace: uri, attributes: attributes, count: Int(attributeCount))
    reader.depth += 1
    reader.stopIfDone()
}

/// `endElementNsSAX2Func`.
private func endElement(
    _ ctx: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
) {
    guard let reader = SitemapXMLReader.reader(ctx) else { return }
    reader.depth -= 1
    reader.scanner.end(depth: reader.depth)
    reader.stopIfDone()
}

/// `charactersSAXFunc`, for text, white space and CDATA alike: a run of the text directly inside the
/// innermost open element (a long text comes in several runs).
private func characters(_ ctx: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ length: Int32) {
    guard let reader = SitemapXMLReader.reader(ctx), let bytes, length > 0 else { return }
    reader.deliverText(UnsafeBufferPointer(start: bytes, count: Int(length)))
}

/// `referenceSAXFunc`: an entity reference left unexpanded.
private func reference(_ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
    guard let reader = SitemapXMLReader.reader(ctx) else { return }
    reader.scanner.entityReference(named: SitemapXMLReader.string(name, limit: 200), line: reader.currentLine)
}

/// `xmlStructuredErrorFunc`, given the parser context that raised the error.
private func recordError(_ ctx: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let error, let reader = SitemapXMLReader.reader(ctx, forErrors: true) else { return }
    reader.record(error.pointee)
}
