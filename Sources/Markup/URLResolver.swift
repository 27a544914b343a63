import URLCanonical

/// Resolves references found in a page against its base URL, as browsers do (the WHATWG URL
/// Standard, through URLCanonical's ``WebURLResolver``).
///
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

    /// The base as the page gave it.
    let base: String
    /// `nil` when the base is not a URL: then only absolute references resolve.
    private let resolver: WebURLResolver?

    init(base: String) {
        self.base = base
        self.resolver = WebURLResolver(base: base)
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
        let absolute = resolver.map { $0.href(resolving: reference) } ?? WebURL(reference)?.href
        guard let absolute else { return .failure(.unresolvable) }
        return Self.bounded(absolute)
    }

    /// ``resolveWeb(_:)``, saying why there is no result. The length that counts is the one kept: a
    /// long fragment is dropped, not held against the link.
    func webResolution(of reference: String) -> Result<String, Failure> {
        let resolver = resolver ?? WebURL(reference).map { WebURLResolver(base: $0) }
        guard let absolute = resolver?.webHref(resolving: reference) else { return .failure(.unresolvable) }
        return Self.bounded(absolute)
    }

    private static func bounded(_ absolute: String) -> Result<String, Failure> {
        absolute.utf8.count <= PageExtractor.maxURLLength ? .success(absolute) : .failure(.tooLong)
    }
}

extension PageMarkup {
    /// Resolves a reference found in the page against its base URL; `nil` when it cannot be resolved
    /// or the result is longer than ``PageExtractor/maxURLLength`` bytes.
    package func resolve(_ reference: String) -> String? {
        URLResolver(base: baseURL).resolve(reference)
    }
}
