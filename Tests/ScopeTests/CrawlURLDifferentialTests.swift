import FixtureServer
import Foundation
import Testing
import URLCanonical

@testable import Scope

/// ``CrawlURL`` against its definition: the WHATWG parser's URL (``WebURL``) with the documented
/// normalizations on top, over the WHATWG URL corpus and generated URLs; and the byte scan's shortcut
/// against the parser alone.
@Suite("CrawlURL agrees with the WHATWG parser plus its normalizations")
struct CrawlURLDifferentialTests {
    /// The definition, written out: WHATWG parse; http(s) only; host in ``HostName`` form; escapes
    /// normalized; user info, default port, empty query and fragment dropped.
    static func reference(_ input: String) -> String? {
        guard let url = WebURL(input), url.scheme == "http" || url.scheme == "https", let parsedHost = url.host,
            let host = HostName.normalize(parsedHost)
        else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        let query = url.query.map(URLEscaping.normalize).flatMap { $0.isEmpty ? nil : "?" + $0 }
        return "\(url.scheme)://\(host)\(port)\(URLEscaping.normalize(url.path))\(query ?? "")"
    }

    /// Every input and every http(s) result of `urltestdata.json`, each read as an absolute URL.
    static func corpus() throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(try Fixtures.bytes("conformance/url/urltestdata.json")))
        let objects = try #require(json as? [Any]).compactMap { $0 as? [String: Any] }
        return objects.flatMap { object in
            [object["input"] as? String, object["href"] as? String, object["base"] as? String].compactMap { $0 }
        }
    }

    /// Schemes, authorities, paths, queries and fragments combined: ordinary URLs the byte scan takes and
    /// unusual ones it leaves to the parser.
    static func generated() -> [String] {
        let schemes = ["http://", "https://", "HTTP://", " https://"]
        let authorities = [
            "example.com", "WWW.Example.COM", "a-b.c0m", "xn--bcher-kva.example", "bücher.example", "127.1",
            "[0:0::1]", "example.com.", "a..b", "ex%61mple.com", "user:pw@host.example", "host.example:80",
            "host.example:443", "host.example:8080", "host.example:", "exa$mple.com", "a_b.example", "1.2.3.4.5",
        ]
        let paths = ["", "/", "/a/../b", "/%7e%2F%2e", "/a b", "/ä", "/a|b^{}`", "/%zz", "/./.%2e/x", "\\a\\b", "/a//"]
        let queries = ["", "?", "?a='b'", "?a=%41&b=|", "?ä=1", "?x=%7e#"]
        let fragments = ["", "#x", "#"]
        var urls: [String] = []
        for scheme in schemes {
            for authority in authorities {
                for path in paths {
                    for query in queries {
                        for fragment in fragments { urls.append(scheme + authority + path + query + fragment) }
                    }
                }
            }
        }
        return urls
    }

    @Test("the WHATWG corpus and generated URLs: CrawlURL is its definition, shortcut or not")
    func agrees() throws {
        var accepted = 0
        var shortcut = 0
        for input in try Self.corpus() + Self.generated() {
            let url = try? CrawlURL(input)
            #expect(url?.string == Self.reference(input), "\(input.debugDescription)")
            let fullParse = Result { () throws(CrawlURL.ParseError) in try CrawlURL(parsingFully: input) }
            let shortcutParse = Result { () throws(CrawlURL.ParseError) in try CrawlURL(input) }
            #expect(shortcutParse == fullParse, "\(input.debugDescription)")
            guard let url else { continue }
            accepted += 1
            if case .ordinaryHTTP = WebURL.parseAbsolute(input) { shortcut += 1 }
            // The parts agree with the whole, and the whole is a fixed point.
            #expect(url.string == "\(url.hostKey)\(url.pathAndQuery)")
            #expect(try CrawlURL(url.string) == url, "\(input.debugDescription)")
            #expect(url.string.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        }
        #expect(accepted > 5000)
        #expect(shortcut > 1000)
    }
}
