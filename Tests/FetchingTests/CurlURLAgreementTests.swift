import FixtureServer
import Foundation
import Scope
import Testing

@testable import Fetching

/// The crawler keys a URL as the WHATWG parser reads it (``CrawlURL``) and hands libcurl the normalized
/// string; libcurl's own parse of that string, which the fetcher's per-host limits and redirect checks use,
/// must name the same scheme, host, port, path and query, so the crawler fetches what it keyed.
@Suite("libcurl reads a normalized crawl URL as it was written")
struct CurlURLAgreementTests {
    static func inputs() throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(try Fixtures.bytes("conformance/url/urltestdata.json")))
        let corpus = (json as? [Any] ?? []).compactMap { $0 as? [String: Any] }.flatMap { object in
            [object["input"] as? String, object["href"] as? String].compactMap { $0 }
        }
        let hosts = [
            "example.com", "Bücher.example", "127.1", "0x7f.1", "[0:0::1]", "[::ffff:1.2.3.4]", "a_b.example.",
        ]
        let rests = ["", "/a/../b?x='1'", "/%7e|^{}?q=a b&c=%zz", "\\a\\b?#f", ":8080/p?", ":443/x", "/ä?ö=1"]
        let generated = ["http://", "https://"].flatMap { scheme in
            hosts.flatMap { host in rests.map { scheme + host + $0 } }
        }
        return corpus + generated
    }

    @Test("scheme, host, port, path and query agree on the WHATWG corpus and generated URLs")
    func agrees() throws {
        var checked = 0
        for input in try Self.inputs() {
            guard let url = try? CrawlURL(input) else { continue }
            let curl = try #require(try? CurlURL(url.string), "libcurl refused \(url.string)")
            #expect(curl.scheme == url.scheme, "\(url.string)")
            #expect(curl.host == url.host, "\(url.string)")
            #expect(curl.port == url.port ?? (url.scheme == "https" ? 443 : 80), "\(url.string)")
            #expect(curl.path == url.path, "\(url.string)")
            #expect(curl.query == url.query, "\(url.string)")
            checked += 1
        }
        #expect(checked > 500)
    }
}
