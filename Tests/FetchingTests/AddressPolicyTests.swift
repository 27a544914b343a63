import Fetching
import FixtureServer
import Testing

@Suite("Address policy")
struct AddressPolicyTests {
    @Test("Loopback is refused by default, before any connection is made", arguments: ["127.0.0.1", "localhost"])
    func refusedByDefault(host: String) async throws {
        let server = try await FixtureServer.start(site: "example")
        try await withFetcher(configuration: testConfiguration(addressPolicy: .publicOnly)) { fetcher in
            let error = await fetchError(fetcher, "http://\(host):\(server.port)/")
            #expect(error?.kind == .addressNotAllowed)
            #expect(error?.message.contains("loopback") == true)
        }
        #expect(await server.totalConnections() == 0)
        await server.stop()
    }

    @Test("--allow-private-network lets loopback through")
    func allowed() async throws {
        try await withServerAndFetcher(site: "example", configuration: testConfiguration(addressPolicy: .allowAll)) {
            server, fetcher in
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/")))
            #expect(response.status == 200)
            #expect(response.remoteAddress == "127.0.0.1")
            #expect(response.remotePort == Int(server.port))
        }
    }

    @Test("A redirect hop to a private address is refused")
    func redirectHopChecked() async throws {
        // Only 127.0.0.1 itself is allowed: the first hop passes, the hop to 127.0.0.2 must not.
        let server = try await FixtureServer.start(site: "example")
        await server.setBehaviour(.redirect(location: "http://127.0.0.2:\(server.port)/"), for: "/hop")
        let policy = AddressPolicy(addresses: [IPAddress(bytes: [127, 0, 0, 1])!])
        try await withFetcher(configuration: testConfiguration(addressPolicy: policy)) { fetcher in
            do {
                _ = try await fetcher.fetchFollowingRedirects(FetchRequest(url: "http://127.0.0.1:\(server.port)/hop"))
                Issue.record("the hop to 127.0.0.2 must be refused")
            } catch let error as FetchError {
                #expect(error.kind == .addressNotAllowed)
                #expect(error.url.contains("127.0.0.2"))
            }
        }
        #expect(await server.requests().map(\.path) == ["/hop"])
        await server.stop()
    }

    @Test(
        "Special ranges are classified",
        arguments: [
            ([127, 0, 0, 1], IPAddress.SpecialRange.loopback),
            ([10, 1, 2, 3], .private),
            ([172, 16, 0, 1], .private),
            ([172, 31, 255, 255], .private),
            ([192, 168, 1, 1], .private),
            ([169, 254, 169, 254], .linkLocal),
            ([100, 64, 0, 1], .sharedAddressSpace),
            ([0, 0, 0, 0], .unspecified),
            ([224, 0, 0, 251], .multicast),
            ([240, 0, 0, 1], .reserved),
            ([255, 255, 255, 255], .reserved),
            ([192, 0, 2, 10], .reserved),
            ([198, 18, 0, 1], .reserved),
        ] as [([UInt8], IPAddress.SpecialRange)])
    func ipv4Special(bytes: [UInt8], range: IPAddress.SpecialRange) throws {
        let address = try #require(IPAddress(bytes: bytes))
        #expect(address.specialRange == range)
        #expect(!AddressPolicy.publicOnly.allows(address))
        #expect(AddressPolicy.allowAll.allows(address))
    }

    @Test(
        "Public IPv4 addresses are allowed",
        arguments: [
            [8, 8, 8, 8], [1, 1, 1, 1], [172, 32, 0, 1], [100, 128, 0, 1], [192, 169, 0, 1], [17, 253, 144, 10],
        ] as [[UInt8]])
    func ipv4Public(bytes: [UInt8]) throws {
        let address = try #require(IPAddress(bytes: bytes))
        #expect(address.specialRange == nil)
        #expect(AddressPolicy.publicOnly.allows(address))
    }

    @Test("IPv6 ranges, including IPv4 embedded in mapped, NAT64 and 6to4 addresses")
    func ipv6() throws {
        func v6(_ groups: [UInt16]) -> IPAddress {
            IPAddress(bytes: groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] })!
        }
        #expect(v6([0, 0, 0, 0, 0, 0, 0, 1]).specialRange == .loopback)
        #expect(v6([0, 0, 0, 0, 0, 0, 0, 0]).specialRange == .unspecified)
        #expect(v6([0xfe80, 0, 0, 0, 0, 0, 0, 1]).specialRange == .linkLocal)
        #expect(v6([0xfd00, 0, 0, 0, 0, 0, 0, 1]).specialRange == .private)
        #expect(v6([0xff02, 0, 0, 0, 0, 0, 0, 1]).specialRange == .multicast)
        #expect(v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]).specialRange == .reserved)
        #expect(v6([0, 0, 0, 0, 0, 0xffff, 0x7f00, 0x0001]).specialRange == .loopback)
        #expect(v6([0, 0, 0, 0, 0, 0xffff, 0x0808, 0x0808]).specialRange == nil)
        #expect(v6([0x64, 0xff9b, 0, 0, 0, 0, 0x0a00, 0x0001]).specialRange == .private)
        #expect(v6([0x2002, 0xc0a8, 0x0101, 0, 0, 0, 0, 1]).specialRange == .private)
        #expect(v6([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]).specialRange == nil)
        #expect(v6([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]).description == "2606:4700::1111")
        #expect(v6([0, 0, 0, 0, 0, 0, 0, 1]).description == "::1")
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }

    /// RFC 5952 §4: lower case, no leading zeros, the longest run of two or more zero groups compressed, the
    /// first of two equal runs; a lone zero group stays.
    @Test(
        "addresses are written in RFC 5952's canonical form",
        arguments: [
            ([UInt16]([1, 0, 0, 2, 0, 0, 0, 3]), "1:0:0:2::3"),
            ([1, 0, 0, 2, 0, 0, 3, 4], "1::2:0:0:3:4"),
            ([0, 0, 0, 0, 0, 0, 0, 0], "::"),
            ([1, 0, 2, 0, 3, 0, 4, 0], "1:0:2:0:3:0:4:0"),
            ([0xABCD, 0x00EF, 0, 0, 0, 0, 0, 0], "abcd:ef::"),
            ([0x2001, 0xdb8, 0, 1, 1, 1, 1, 1], "2001:db8:0:1:1:1:1:1"),
        ])
    func canonicalText(groups: [UInt16], text: String) throws {
        let bytes = groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try #require(IPAddress(bytes: bytes)).description == text)
    }

    @Test("IPv4 addresses are dotted decimal")
    func dottedDecimal() throws {
        #expect(try #require(IPAddress(bytes: [192, 0, 2, 255])).description == "192.0.2.255")
        #expect(try #require(IPAddress(bytes: [0, 0, 0, 0])).description == "0.0.0.0")
    }
}
