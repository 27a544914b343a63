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

    init(base: String) {
        self.base = base
        self.baseURL = URL(string: base)
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
