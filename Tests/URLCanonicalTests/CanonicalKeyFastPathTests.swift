import FixtureServer
import Foundation
import Testing

@testable import URLCanonical

/// The fast path must never give a key the full WHATWG parse would not.
@Suite struct CanonicalKeyFastPathTests {
    static let generated: [String] = {
        let hosts = [
            "a.test", "www.example.com", "Example.com", "a.test:8080", "a.test:443", "a.test:080", "1.2.3.4",
            "0x7f.a", "xn--bcher-kva.de", "a..b", "-a.test", "a.test.", "ab--c.test", "b.c9", "x_y.test",
        ]
        let paths = [
            "", "/", "/a/b", "/a/./b", "/a/../b", "/.", "/..", "/%7Ea", "/%2f", "/a b", "/ä", "/a'b", "/a;b=c",
            "/a//b", "/a/.b", "/a/..b/", "/\\a", "/a|b", "/~user/x.html",
        ]
        let queries = [
            "", "?", "?a=1", "?b=1&a=2", "?a=1&b=2", "?a=1&a=2", "?utm_source=x", "?UTM_x=1", "?a=1&&b=2",
            "?a=%41", "?a='", "?a=b?c", "?gclid=1&z=2", "?a&b", "?a=1&b=2#f", "#f",
        ]
        var urls: [String] = []
        for scheme in ["http", "https", "HTTP", "ftp"] {
            for host in hosts {
                for path in paths {
                    for query in queries { urls.append("\(scheme)://\(host)\(path)\(query)") }
                }
            }
        }
        return urls
    }()

    @Test func agreesWithTheFullParseOnGeneratedURLs() {
        var fast = 0
        for url in Self.generated {
            guard let key = CanonicalKeyFastPath.key(url) else { continue }
            fast += 1
            #expect(key == WebURL(url)?.canonicalKey, "\(url)")
        }
        // Plain URLs do take the fast path (the test would pass vacuously otherwise).
        #expect(fast > 300)
        #expect(CanonicalKeyFastPath.key("https://www.example.com/recipes/lemon-tart") != nil)
        #expect(CanonicalKeyFastPath.key("https://a.test/x?a=1&b=2") == "https://a.test/x?a=1&b=2")
        #expect(CanonicalKeyFastPath.key("https://a.test") == "https://a.test/")
    }

    @Test func agreesWithTheFullParseOnTheWHATWGCorpus() throws {
        let data = try Fixtures.bytes("conformance/url/urltestdata.json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [Any])
        var checked = 0
        for case let entry as [String: Any] in entries {
            for case let text as String in [entry["input"], entry["href"]] {
                guard let key = CanonicalKeyFastPath.key(text) else { continue }
                checked += 1
                #expect(key == WebURL(text)?.canonicalKey, "\(text.debugDescription)")
            }
        }
        #expect(checked > 50)
    }
}
