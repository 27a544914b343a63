import Foundation

/// Resolves references found in a page against its base URL (RFC 3986 through Foundation's
/// `URL`, with invalid characters percent-encoded as browsers do).
///
/// WHATWG-exact parsing, canonicalization and deduplication keys belong to the URL
/// canonicalization type that arrives with the index (issue 5); this is only resolution.
struct URLResolver: Sendable {
    let base: String
    private let baseURL: URL?

    init(base: String) {
        self.base = base
        self.baseURL = URL(string: base)
    }

    /// The absolute form of `reference`, or `nil` when it cannot be resolved.
    func resolve(_ reference: String) -> String? {
        // HTML strips leading and trailing ASCII white space and removes tabs and newlines inside URLs.
        let cleaned = reference.trimmingSpaces().filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        guard !cleaned.isEmpty || baseURL != nil else { return nil }
        guard let url = URL(string: cleaned, relativeTo: baseURL) else { return nil }
        return url.absoluteString
    }

    /// The absolute form of `reference` when it is an http or https URL (links a crawler can
    /// follow), without its fragment; `nil` for `javascript:`, `mailto:`, `tel:` and the like.
    func resolveWeb(_ reference: String) -> String? {
        guard let absolute = resolve(reference), let url = URL(string: absolute),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        guard let hash = absolute.firstIndex(of: "#") else { return absolute }
        return String(absolute[..<hash])
    }
}

extension PageMarkup {
    /// Resolves a reference found in the page against its base URL; `nil` when it cannot be resolved.
    public func resolve(_ reference: String) -> String? {
        URLResolver(base: baseURL).resolve(reference)
    }
}
