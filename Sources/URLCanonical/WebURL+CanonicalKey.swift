internal import ASCIIText

/// The crawl's URL dedup key (SPEC §4 "URL canonicalization").
extension WebURL {
    /// Query parameter names dropped from the key (compared ASCII case-insensitively): they track
    /// campaigns and clicks and never select different content.
    package static let trackingParameterNames: Set<String> = ["gclid", "fbclid", "mc_cid", "mc_eid"]

    /// Names starting with this prefix (ASCII case-insensitively) are tracking parameters too.
    package static let trackingParameterPrefix = "utm_"

    /// The dedup key of this URL: two URLs naming the same resource get the same key.
    ///
    /// On top of WHATWG parsing (which already lower-cases scheme and host, maps the host through IDNA to
    /// ASCII, drops the default port and removes dot segments) the key:
    /// - decodes percent-escapes of unreserved characters (`A–Z a–z 0–9 - . _ ~`) and upper-cases the hex
    ///   of the others, in the path and the query;
    /// - drops the fragment, tracking parameters (`utm_*`, `gclid`, `fbclid`, `mc_cid`, `mc_eid`) and empty
    ///   parameters (`a&&b`), sorts the remaining parameters by name (stable: equal names keep their order)
    ///   and drops the query when nothing is left;
    /// - writes an empty path as `/`.
    ///
    /// `www.` is kept: two hosts are merged only through redirects or `rel=canonical`, never here.
    package var canonicalKey: String {
        var key = record
        key.fragment = nil
        if key.opaquePath == nil {
            key.path = key.path.map(Self.normalizedPercentEncoding)
            if key.path.isEmpty, key.host != nil { key.path = [""] }
        } else {
            key.opaquePath = key.opaquePath.map(Self.normalizedPercentEncoding)
        }
        key.query = key.query.flatMap(Self.canonicalQuery)
        return key.serialized(excludingFragment: true)
    }

    /// The query's parameters normalized, without tracking or empty ones, sorted by name; `nil` if none are left.
    static func canonicalQuery(_ query: String) -> String? {
        let parameters = query.split(separator: "&").map { normalizedPercentEncoding(String($0)) }
            .filter { !isTrackingParameter($0) }
        guard !parameters.isEmpty else { return nil }
        let sorted = parameters.enumerated().sorted { left, right in
            let leftName = name(of: left.element)
            let rightName = name(of: right.element)
            if leftName != rightName { return leftName.utf8.lexicographicallyPrecedes(rightName.utf8) }
            return left.offset < right.offset
        }
        return sorted.map(\.element).joined(separator: "&")
    }

    private static func name(of parameter: String) -> Substring {
        parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    static func isTrackingParameter(_ parameter: String) -> Bool {
        let lowered = IDNA.asciiLowercased(String(name(of: parameter)))
        return lowered.hasPrefix(trackingParameterPrefix) || trackingParameterNames.contains(lowered)
    }

    /// `component` with escapes of unreserved characters decoded and the hex of all other escapes upper-cased;
    /// everything else (including a `%` without two hex digits) is kept as it is: the WHATWG parse before
    /// has already escaped what a URL may not hold.
    static func normalizedPercentEncoding(_ component: String) -> String {
        let bytes = Array(component.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return component }
        let output = PercentEscape.normalized(bytes, escapes: .unreservedDecoded) { _, _ in true }
        return String(decoding: output, as: UTF8.self)
    }
}

/// The dedup key (``WebURL/canonicalKey``) of `string` resolved against `base`, or `nil` when it does not
/// parse as a URL.
package func canonicalKey(_ string: String, base: WebURL? = nil) -> String? {
    if base == nil, let key = CanonicalKeyFastPath.key(string) { return key }
    return WebURL(string, base: base)?.canonicalKey
}
