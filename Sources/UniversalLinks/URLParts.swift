/// The three parts of a URL that universal-link rules look at, split from the URL string as written
/// (RFC 3986 §3: the fragment follows the first `#`, the query the first `?` before it, the path starts
/// at the first `/` after the authority). Nothing else is normalized: `..` segments, the host and the
/// scheme are the caller's business.
struct URLParts: Sendable {
    /// The path; `/` when the URL has none (`https://example.com`), as a browser requests it.
    let path: Substring
    /// The query without its `?`, or nil when there is none.
    let query: Substring?
    /// The fragment without its `#`, or nil when there is none.
    let fragment: Substring?

    /// Splits `url`. A string without `scheme://` is read as a path with optional query and fragment.
    init(_ url: String) {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        } else {
            query = nil
        }
        if let separator = rest.firstRange(of: "://") {
            rest = rest[separator.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        path = rest.isEmpty ? "/" : rest
    }
}

/// One URL prepared for the comparisons of one ``MatchOptions`` combination.
///
/// An absent query or fragment is the empty string: Apple's default pattern `*` matches it, and a
/// pattern like `?*` (one or more characters) does not.
struct PreparedURL: Sendable {
    let path: [Unicode.Scalar]
    let query: [Unicode.Scalar]
    let fragment: [Unicode.Scalar]
    /// The query split at `&` (empty items dropped), each item at its first `=`, the values in order
    /// by name; an item without `=` has the empty value. Splitting happens before decoding, so `%26`
    /// stays inside a value. Kept by name, so each pattern of a rule finds its values in one look-up.
    let queryItems: [String: [[Unicode.Scalar]]]

    init(_ parts: URLParts, _ options: MatchOptions) {
        path = MatchText.component(parts.path, options)
        query = MatchText.component(parts.query ?? "", options)
        fragment = MatchText.component(parts.fragment ?? "", options)
        var items: [String: [[Unicode.Scalar]]] = [:]
        for item in (parts.query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let equals = item.firstIndex(of: "=")
            let name = equals.map { item[..<$0] } ?? item
            let value = equals.map { item[item.index(after: $0)...] } ?? ""
            var nameText = String.UnicodeScalarView()
            nameText.append(contentsOf: MatchText.component(name, options))
            items[String(nameText), default: []].append(MatchText.component(value, options))
        }
        queryItems = items
    }

    /// The values of every query item called `name` (already in this form), or `[[]]` (one empty
    /// value) when there is none: Apple treats an absent item as present with an empty value.
    func values(named name: String) -> [[Unicode.Scalar]] {
        queryItems[name] ?? [[]]
    }
}

/// The prepared forms of one URL, made on first use for each option combination a rule asks for.
struct URLTexts {
    private let parts: URLParts
    private var cache: [MatchOptions: PreparedURL] = [:]

    init(_ url: String) {
        parts = URLParts(url)
    }

    mutating func prepared(_ options: MatchOptions) -> PreparedURL {
        if let prepared = cache[options] { return prepared }
        let prepared = PreparedURL(parts, options)
        cache[options] = prepared
        return prepared
    }
}
