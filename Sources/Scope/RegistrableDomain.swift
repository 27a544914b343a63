/// Registrable domains ("eTLD+1", "site"): the part of a host name someone registered, found with
/// the Public Suffix List (https://publicsuffix.org) through libpsl.
///
/// `www.example.co.uk` and `shop.example.co.uk` share the registrable domain `example.co.uk`;
/// `alice.github.io` and `bob.github.io` do not (`github.io` is a public suffix, so each user's
/// subdomain is its own site).
package enum RegistrableDomain {
    /// The registrable domain of `host`, in lowercase ASCII.
    ///
    /// - `host` is a bare host name: no scheme, port or path. Case and one trailing dot are ignored.
    /// - International names: give them as punycode (`xn--bcher-kva.example`, as ``CrawlURL``
    ///   produces them) or in Unicode (`bücher.example`, mapped to punycode here). The answer is
    ///   always punycode. (libpsl itself expects either lowercase NFKC UTF-8 or ASCII punycode.)
    /// - IP address literals (`127.0.0.1`, `[::1]`) and single-label hosts (`localhost`,
    ///   intranet names) have no registrable domain above them: the answer is the host itself.
    /// - A host that is itself a public suffix (`co.uk`, `github.io`) has no registrable domain:
    ///   the answer is `nil`. So is it for text that cannot be a host name.
    /// - Should libpsl have no list data at all, every multi-label name answers `nil`, which
    ///   narrows a ``CrawlScope`` to its seeds' exact hosts rather than widening it.
    ///
    /// Thread safe; the list is loaded once per process, on first use.
    package static func of(host: String) -> String? {
        guard let name = HostName.normalize(host) else { return nil }
        return of(normalizedHost: name)
    }

    /// The same as ``of(host:)`` for a host already in ``HostName`` form.
    static func of(normalizedHost name: String) -> String? {
        if HostName.isAddressLiteral(name) || !name.utf8.contains(UInt8(ascii: ".")) { return name }
        return PublicSuffixList.shared?.registrableDomain(of: name)
    }

    /// The key a host is kept in scope by: its registrable domain, or, when it has none (an IP
    /// address, `localhost`, a host that is a public suffix), the host itself.
    static func siteKey(normalizedHost name: String) -> String {
        of(normalizedHost: name) ?? name
    }
}
