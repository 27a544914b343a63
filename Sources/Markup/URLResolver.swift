import Foundation

/// Resolves references found in a page against its base URL (RFC 3986 through Foundation's
/// `URL`, with invalid characters percent-encoded as browsers do).
///
/// WHATWG-exact parsing, canonicalization and deduplication keys belong to the URL
/// canonicalization type that arrives with the index (issue 5); this is only resolution.
/// No result is longer than ``PageExtractor/maxURLLength`` bytes: a longer one is refused, since a
/// long base would otherwise make every relative reference of the page as long as itself.
struct URLResolver: Sendable {
    /// Why a reference has no absolute form here.
    enum Failure: Error {
        /// Not a URL, or not one of the kind asked for (`resolveWeb`).
        case unresolvable
        /// Resolved, but longer than ``PageExtractor/maxURLLength`` bytes of UTF-8.
        case tooLong
    }

    let base: String
    private let baseURL: URL?
    /// `scheme://authority` and the base up to its last `/`, when the base is a plain http(s) URL:
    /// what the fast path for ordinary links needs.
    private let simpleBase: (origin: String, directory: String)?

    init(base: String) {
        self.base = base
        self.baseURL = URL(string: base)
        self.simpleBase = Self.simpleParts(of: base)
    }

    /// The absolute form of `reference`, or `nil` when it cannot be resolved or is too long.
    func resolve(_ reference: String) -> String? {
        try? resolution(of: reference).get()
    }

    /// The absolute form of `reference` when it is an http or https URL (links a crawler can
    /// follow), without its fragment; `nil` for `javascript:`, `mailto:`, `tel:` and the like,
    /// and when too long.
    func resolveWeb(_ reference: String) -> String? {
        try? webResolution(of: reference).get()
    }

    /// The absolute form of `reference`, or why there is none.
    func resolution(of reference: String) -> Result<String, Failure> {
        guard let absolute = unboundedResolution(of: reference) else { return .failure(.unresolvable) }
        return Self.bounded(absolute)
    }

    /// ``resolveWeb(_:)``, saying why there is no result.
    func webResolution(of reference: String) -> Result<String, Failure> {
        if let resolved = fastWebResolution(of: reference) { return Self.bounded(resolved) }
        return foundationWebResolution(of: reference)
    }

    /// ``webResolution(of:)`` through Foundation only (the reference the fast path is tested against).
    func foundationWebResolution(of reference: String) -> Result<String, Failure> {
        guard let absolute = unboundedResolution(of: reference), let url = URL(string: absolute),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return .failure(.unresolvable) }
        // The length that counts is the one kept: a long fragment is dropped, not held against the link.
        guard let hash = absolute.firstIndex(of: "#") else { return Self.bounded(absolute) }
        return Self.bounded(String(absolute[..<hash]))
    }

    private func unboundedResolution(of reference: String) -> String? {
        // HTML strips leading and trailing ASCII white space and removes tabs and newlines inside URLs.
        let cleaned = reference.trimmingSpaces().filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        guard !cleaned.isEmpty || baseURL != nil else { return nil }
        guard let url = URL(string: cleaned, relativeTo: baseURL) else { return nil }
        return url.absoluteString
    }

    /// The resolution of an ordinary link (`/path`, `page.html`, `https://host/path`, ASCII with
    /// nothing to escape, no dot segments), without its fragment, by string operations: the same
    /// result Foundation's resolver gives (a test holds them equal), at a fraction of the cost on
    /// pages with hundreds of links. `nil` sends every other reference to Foundation.
    func fastWebResolution(of reference: String) -> String? {
        guard let simpleBase else { return nil }
        var bytes = reference.utf8[...]
        // HTML strips surrounding ASCII white space.
        while let first = bytes.first, Self.isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, Self.isSpace(last) { bytes = bytes.dropLast() }
        guard let first = bytes.first else { return nil }
        var end = bytes.endIndex
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") {
                end = index
                break
            }
            guard Self.isPlain(byte) else { return nil }
        }
        let kept = bytes[bytes.startIndex..<end]
        guard !kept.isEmpty, !Self.hasDotSegment(kept) else { return nil }
        let text = String(decoding: kept, as: UTF8.self)
        if first == UInt8(ascii: "/") {
            guard kept.count == 1 || kept[kept.index(after: kept.startIndex)] != UInt8(ascii: "/") else { return nil }
            return simpleBase.origin + text
        }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            guard let schemeEnd = text.range(of: "://") else { return nil }
            let afterScheme = text[schemeEnd.upperBound...]
            let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
            guard !authority.isEmpty, !authority.contains("@"), afterScheme.contains("/") else { return nil }
            return text
        }
        // A relative path: letters or digits first, and no ':' before any '/' (not a scheme).
        guard Self.isAlphanumeric(first), !(text.prefix { $0 != "/" }.contains(":")) else { return nil }
        return simpleBase.directory + text
    }

    /// `(scheme://authority, base up to its last '/')` for a plain http(s) base.
    private static func simpleParts(of base: String) -> (origin: String, directory: String)? {
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), base.utf8.allSatisfy(isPlain),
            let schemeEnd = base.range(of: "://")
        else { return nil }
        let rest = base[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        let origin = String(base[..<authorityEnd])
        let pathAndMore = rest[authorityEnd...]
        let path = pathAndMore.prefix { $0 != "?" && $0 != "#" }
        guard path.hasPrefix("/"), !hasDotSegment(path.utf8), let slash = path.lastIndex(of: "/") else {
            return nil
        }
        return (origin, String(base[..<base.index(after: slash)]))
    }

    /// ASCII that no resolver escapes or treats specially (no space, quotes, angle brackets,
    /// backslash, `%`, `^`, backtick, braces or bar).
    private static func isPlain(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return !"\"<>\\^`{|}%".utf8.contains(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// Whether a path (before any query) has a `.` or `..` segment.
    private static func hasDotSegment<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        let path = bytes.prefix { $0 != UInt8(ascii: "?") }
        return path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains { segment in
            segment.elementsEqual([0x2E]) || segment.elementsEqual([0x2E, 0x2E])
        }
    }

    private static func bounded(_ absolute: String) -> Result<String, Failure> {
        absolute.utf8.count <= PageExtractor.maxURLLength ? .success(absolute) : .failure(.tooLong)
    }
}

extension PageMarkup {
    /// Resolves a reference found in the page against its base URL; `nil` when it cannot be resolved
    /// or the result is longer than ``PageExtractor/maxURLLength`` bytes.
    public func resolve(_ reference: String) -> String? {
        URLResolver(base: baseURL).resolve(reference)
    }
}
