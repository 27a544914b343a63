import Testing

@testable import Scope

@Suite("Registrable domains through libpsl")
struct RegistrableDomainTests {
    static let table: [(host: String, expected: String?)] = [
        ("example.com", "example.com"),
        ("www.example.com", "example.com"),
        ("www.example.co.uk", "example.co.uk"),
        ("example.co.uk", "example.co.uk"),
        ("a.b.github.io", "b.github.io"),
        ("github.io", nil),
        ("co.uk", nil),
        ("a.b.c.d.e.f.g.h.i.j.example.com", "example.com"),
        // IP literals and single-label names are their own site.
        ("127.0.0.1", "127.0.0.1"),
        ("[::1]", "[::1]"),
        ("[2001:DB8::1]", "[2001:db8::1]"),
        ("localhost", "localhost"),
        ("LOCALHOST.", "localhost"),
        // Case and one trailing dot do not matter.
        ("WWW.Example.COM", "example.com"),
        ("www.example.com.", "example.com"),
        // International names: punycode in, punycode out; Unicode is mapped to punycode.
        ("www.xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("www.bücher.example", "xn--bcher-kva.example"),
        ("WWW.BÜCHER.EXAMPLE", "xn--bcher-kva.example"),
        ("ｗｗｗ．ｅｘａｍｐｌｅ．ｃｏｍ", "example.com"),
        ("www.食狮.中国", "xn--85x722f.xn--fiqs8s"),
        ("www.食狮。中国", "xn--85x722f.xn--fiqs8s"),
        ("xn--fiqs8s", "xn--fiqs8s"),
        ("食狮.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"),
        // Not host names.
        ("", nil),
        (".", nil),
        (".example.com", nil),
        ("a..example.com", nil),
        ("exa mple.com", nil),
        ("example.com:8080", nil),
        ("https://example.com/", nil),
        ("bad\u{FFFD}.example", nil),
        (String(repeating: "a", count: 64) + ".com", nil),
        (String(repeating: "abcdefghi.", count: 26) + "com", nil),
        ("[::1", nil),
        ("[example.com]", nil),
    ]

    @Test("registrable domain of a host", arguments: table)
    func registrableDomain(host: String, expected: String?) {
        #expect(RegistrableDomain.of(host: host) == expected)
    }

    @Test("the process-wide list is loaded from libpsl")
    func listLoads() throws {
        let list = try #require(PublicSuffixList.shared)
        #expect(list.registrableDomain(of: "www.example.co.uk") == "example.co.uk")
        #expect(list.registrableDomain(of: "co.uk") == nil)
    }

    @Test("concurrent lookups on the shared context agree")
    func concurrentLookups() async {
        let hosts = ["www.example.co.uk", "a.b.github.io", "shop.bücher.example", "x.y.example.com"]
        let expected = hosts.map { RegistrableDomain.of(host: $0) }
        let allAgree = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<500).allSatisfy { round in
                        let index = round % hosts.count
                        return RegistrableDomain.of(host: hosts[index]) == expected[index]
                    }
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(allAgree)
        #expect(expected == ["example.co.uk", "b.github.io", "xn--bcher-kva.example", "example.com"])
    }

    @Test(
        "an address literal: bracketed, or a last non-empty label of digits",
        arguments: [
            ("127.0.0.1", true), ("10.0.0.1.", true), ("1.2.3.4..", true), ("[::1]", true), ("8", true),
            ("example.com", false), ("example.com.", false), ("1.example", false), ("", false), ("...", false),
            ("192.168.0.1a", false), ("a.123", true),
        ] as [(String, Bool)])
    func addressLiteral(host: String, isLiteral: Bool) {
        #expect(HostName.isAddressLiteral(host) == isLiteral)
    }
}
