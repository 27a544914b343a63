internal import CLibXML2

/// Reads one XML sitemap or feed with libxml2's streaming `xmlTextReader`
/// (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-xmlreader.html): node by node, pulling
/// the bytes from a ``SitemapByteSource`` through the reader's I/O callback, so neither the document
/// nor a tree of it is ever held whole. The one owner of its `xmlTextReaderPtr`, freed in `deinit`.
///
/// Safe by construction: no entity is substituted (`XML_PARSE_NOENT` is never set), no DTD is loaded
/// or validated against, XInclude is off, and `XML_PARSE_NONET` forbids the network. libxml2's errors
/// go to a per-reader handler and become located issues; nothing is printed.
///
/// The reader stops at the first well-formedness error (it has no recovery mode). Everything the
/// parser had read before the error is still delivered, from the part of the tree the reader had
/// built but not yet handed out (``deliverRemainingTree()``); nothing after it is read.
final class SitemapXMLReader {
    /// libxml2's parser options (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html#xmlParserOption):
    /// never touch the network, report nothing on stderr, keep line numbers past 65,535. Deliberately
    /// absent: NOENT (entity substitution), DTDLOAD, DTDATTR, DTDVALID, XINCLUDE, HUGE (libxml2's own
    /// size and depth limits stay on) and RECOVER (the reader stops at the first error anyway; without
    /// it the parser stops exactly there, so what is kept is exactly what came before the error).
    private static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_COMPACT.rawValue)

    /// What the scanner last received from the node loop, so that the recovery walk goes on from there.
    enum Delivered {
        /// The start tag of a non-empty element at this depth; nothing inside it yet.
        case openElement(depth: Int)
        /// A node at this depth that is complete: text, an empty element, an end tag.
        case completeNode(depth: Int)
    }

    let reader: xmlTextReaderPtr
    var scanner: SitemapEntryScanner
    var delivered: Delivered?
    /// The partial document taken over from the reader by the recovery walk, freed after the reader.
    var keptDocument: xmlDocPtr?
    /// Whether libxml2 reported an error (the first one stops the reader).
    var failed = false
    /// The innermost element still open in the parser at the first error: it and its ancestors never
    /// got their end tag. `nil` when the error came outside any element or without a parser context.
    var openAtError: xmlNodePtr?
    /// The last namespace URI read off the reader, by its interned pointer (see `namespaceString`).
    var lastNamespace: (pointer: UnsafePointer<xmlChar>, value: String)?
    private let source: SitemapByteSource

    private init(reader: xmlTextReaderPtr, source: SitemapByteSource, collector: SitemapCollector) {
        self.reader = reader
        self.source = source
        self.scanner = SitemapEntryScanner(collector: collector)
    }

    deinit {
        xmlFreeTextReader(reader)
        // Taken with `xmlTextReaderCurrentDoc`, which leaves freeing it to the caller. The document holds its
        // own reference to the name dictionary, so it outlives the reader safely.
        if let keptDocument { xmlFreeDoc(keptDocument) }
    }

    /// Reads the XML document `source` streams into `collector`. `url` names the document in libxml2
    /// (and is the base it would resolve against); nothing is ever fetched from it.
    static func read(_ source: SitemapByteSource, url: String, into collector: inout SitemapCollector) {
        // libxml2's one-time set-up, shared with the HTML parser: two separate initializers could run
        // `xmlInitParser` on two threads at once, the race `HTMLDocument.libraryInitialized` describes.
        _ = HTMLDocument.libraryInitialized
        // The source outlives the reader: the caller holds it, and so does `SitemapXMLReader.source`.
        let context = Unmanaged.passUnretained(source).toOpaque()
        let created = url.withCString { xmlReaderForIO(readBytes, nil, context, $0, nil, options) }
        guard let created else {
            collector.note(.malformedXML, "libxml2 could not start reading the document")
            return
        }
        let reader = SitemapXMLReader(reader: created, source: source, collector: collector)
        xmlTextReaderSetStructuredErrorHandler(created, recordError, Unmanaged.passUnretained(reader).toOpaque())
        reader.run()
        collector = reader.scanner.collector
    }

    /// The node loop: each node to the scanner until the document ends, fails, or nothing more is wanted.
    private func run() {
        var status: Int32 = 1
        while !scanner.isDone {
            status = xmlTextReaderRead(reader)
            guard status == 1 else { break }
            let depth = Int(xmlTextReaderDepth(reader))
            switch UInt32(clamping: xmlTextReaderNodeType(reader)) {
            case XML_READER_TYPE_ELEMENT.rawValue:
                let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
                scanner.start(currentElement(depth: depth), isEmpty: isEmpty)
                delivered = isEmpty ? .completeNode(depth: depth) : .openElement(depth: depth)
            case XML_READER_TYPE_END_ELEMENT.rawValue:
                scanner.end(depth: depth)
                delivered = .completeNode(depth: depth)
            case XML_READER_TYPE_TEXT.rawValue, XML_READER_TYPE_CDATA.rawValue:
                deliverText(atDepth: depth, isWhitespace: false)
            case XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue, XML_READER_TYPE_WHITESPACE.rawValue:
                deliverText(atDepth: depth, isWhitespace: true)
            case XML_READER_TYPE_ENTITY_REFERENCE.rawValue:
                let name = Self.string(xmlTextReaderConstName(reader), limit: 200)
                scanner.entityReference(named: name, line: currentLine)
                delivered = .completeNode(depth: depth)
            default:
                delivered = .completeNode(depth: depth)
            }
        }
        if status == -1 {
            deliverRemainingTree()
        }
        scanner.endOfInput()
    }

    /// The reader's current text node, to the scanner when it wants it.
    private func deliverText(atDepth depth: Int, isWhitespace: Bool) {
        if scanner.wantsText(atDepth: depth, isWhitespace: isWhitespace) {
            scanner.text(Self.string(xmlTextReaderConstValue(reader), limit: textLimit), atDepth: depth)
        }
        delivered = .completeNode(depth: depth)
    }

    /// One error libxml2 reported, as a located issue. Warnings are left out; so is everything after the
    /// byte limit cut the document (those are only the cut's consequences, reported once as `tooLarge`).
    fileprivate func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        if !failed {
            failed = true
            // The parser's own context comes with its errors (`xmlError.ctxt`); its `node` is the element it
            // was inside (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html#xmlParserCtxt).
            // Not when the error comes from checking an entity's content: that runs in a context of its own
            // (entity `depth` above 0) over a temporary tree, freed before the walk could look at it.
            if error.domain == Int32(XML_FROM_PARSER.rawValue), let context = error.ctxt {
                let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
                openAtError = parser.pointee.depth == 0 ? parser.pointee.node : nil
            }
        }
        guard !source.exceededLimit else { return }
        let message = error.message.map { String(cString: $0).trimmingSpaces() } ?? "error \(error.code)"
        scanner.collector.note(.malformedXML, message, line: error.line > 0 ? Int(error.line) : nil)
    }
}

@available(*, unavailable, message: "libxml2 readers stay on the thread that created them")
extension SitemapXMLReader: Sendable {}

/// The reader's I/O callback (`xmlInputReadCallback`): the next bytes of the ``SitemapByteSource``
/// passed as context; 0 at the end.
private func readBytes(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ length: Int32)
    -> Int32
{
    guard let context, let buffer, length > 0 else { return -1 }
    let source = Unmanaged<SitemapByteSource>.fromOpaque(context).takeUnretainedValue()
    return Int32(source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
}

/// The reader's structured error handler (`xmlStructuredErrorFunc`), given the ``SitemapXMLReader``.
private func recordError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    Unmanaged<SitemapXMLReader>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
}
