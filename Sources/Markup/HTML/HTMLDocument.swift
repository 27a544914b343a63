internal import CLibXML2

/// A parsed HTML document: the one owner of a libxml2 `htmlDocPtr`, freed in `deinit`.
///
/// libxml2 trees are not shareable across threads, so a document never leaves the
/// synchronous function that parsed it: callers use ``HTMLDocument/withDocument(utf8:url:_:)``,
/// walk the tree and return a `Sendable` value.
final class HTMLDocument {
    let pointer: htmlDocPtr

    private init(pointer: htmlDocPtr) {
        self.pointer = pointer
    }

    deinit {
        xmlFreeDoc(pointer)
    }

    /// Options for every parse (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-HTMLparser.html#htmlParserOption):
    /// recover from broken markup, never touch the network, print nothing, and ignore any
    /// `<meta charset>` in the text: the bytes were decoded to UTF-8 before libxml2 sees them.
    private static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_COMPACT.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
            | HTML_PARSE_NODEFDTD.rawValue)

    /// libxml2's one-time set-up, run before the first parse (a `static let` is initialised once,
    /// thread-safely). "In case of use in multithreaded programs" it must run before threads parse
    /// (https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html#xmlInitParser):
    /// left to happen lazily, two first parses at once race in `xmlDictCreate` → `__xmlRandom`,
    /// which creates the dictionary mutex twice, and both threads then wait on it forever.
    static let libraryInitialized: Void = xmlInitParser()

    /// Parses UTF-8 HTML and runs `body` with the document, which is freed when `body` returns.
    /// Returns `nil` when libxml2 could not build any tree (empty or unusable input).
    static func withDocument<Result>(
        utf8 html: [UInt8], url: String, _ body: (HTMLDocument) throws -> Result
    ) rethrows -> Result? {
        _ = libraryInitialized
        // A per-call parser context keeps error state out of libxml2's globals
        // (libxml2 2.9 has no xmlCtxtSetErrorHandler).
        guard !html.isEmpty, let context = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(context) }
        let parsed: htmlDocPtr? = html.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                url.withCString { url in
                    htmlCtxtReadMemory(context, chars.baseAddress, Int32(clamping: chars.count), url, "UTF-8", options)
                }
            }
        }
        guard let parsed else { return nil }
        return try body(HTMLDocument(pointer: parsed))
    }

    /// The root element (`<html>`), if any.
    var root: HTMLNode? {
        xmlDocGetRootElement(pointer).map(HTMLNode.init)
    }
}

@available(*, unavailable, message: "libxml2 documents stay on the thread that parsed them")
extension HTMLDocument: Sendable {}
