/// How one fuzz input becomes a call to `PageExtraction(bytes:url:headers:)`.
///
/// The first byte picks the response the page came with; the rest is the page body:
///
/// - bits 0–3: the `Content-Type` header (`contentTypes[bits]`, `nil` for none);
/// - bits 4–6: the `X-Robots-Tag` headers (`robotsTags[bits]`, none, one or two);
/// - bit 7: the page URL (`urls[bit]`).
///
/// An empty input is an empty page with no headers. `Tests/ItemsTests/FuzzRegressionTests.swift`
/// decodes `Fixtures/fuzz/` files the same way; keep the two in step.
struct FuzzInput {
    /// `Content-Type` values: none, the common charsets, a stateful one (ISO-2022-JP), UTF-16, the
    /// "replacement" encoding, x-user-defined, labels libiconv must not be asked about, and junk.
    static let contentTypes: [String?] = [
        nil,
        "text/html; charset=utf-8",
        "text/html; charset=Shift_JIS",
        "text/html; charset=windows-1251",
        "text/html; charset=bogus-x",
        "text/html",
        "text/html; charset=\"UTF-16LE\"",
        "text/html;charset=utf-16be",
        "text/html; charset=iso-2022-jp",
        "text/html; charset=gb18030",
        "text/html; charset=EUC-KR",
        "text/html; charset=big5",
        "text/html; charset=iso-2022-kr",
        "text/html; charset=x-user-defined",
        "text/html; charset='koi8-r",
        "charset=;charset=\"\";charset = latin1",
    ]

    /// `X-Robots-Tag` header values, in response order.
    static let robotsTags: [[String]] = [
        [],
        ["noindex"],
        ["nofollow, nosnippet"],
        ["applebot: none"],
        ["googlebot: noindex", "applebot: max-snippet:0"],
        ["unavailable_after: 25 Jun 2010 15:00:00 PST"],
        [":", ",,,", "applebot:"],
        ["max-snippet: 0, noimageindex, ALL"],
    ]

    /// Page URLs: a plain one and one with a port, user info, query, fragment and non-ASCII path.
    static let urls = [
        "https://example.com/dir/page.html",
        "http://user:pw@[2001:db8::1]:8080/%7Ea/ü?q=1&r=%zz#frag",
    ]

    let body: [UInt8]
    let url: String
    let headers: [(name: String, value: String)]

    init(_ data: UnsafeBufferPointer<UInt8>) {
        guard let selector = data.first else {
            self.body = []
            self.url = Self.urls[0]
            self.headers = []
            return
        }
        body = Array(data.dropFirst())
        url = Self.urls[Int(selector >> 7)]
        var headers: [(name: String, value: String)] = []
        if let contentType = Self.contentTypes[Int(selector & 0x0F)] {
            headers.append((name: "Content-Type", value: contentType))
        }
        for value in Self.robotsTags[Int((selector >> 4) & 0x07)] {
            headers.append((name: "X-Robots-Tag", value: value))
        }
        self.headers = headers
    }
}
