internal import URLCanonical

/// An IPv4 or IPv6 address as raw bytes, with the special-purpose ranges a crawler must
/// not reach by default.
///
/// The ranges are those of the IANA special-purpose registries
/// (https://www.iana.org/assignments/iana-ipv4-special-registry,
/// https://www.iana.org/assignments/iana-ipv6-special-registry) that are not globally
/// reachable, plus multicast.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// Four bytes for IPv4, sixteen for IPv6, in network order.
    public let bytes: [UInt8]

    /// Creates an address from 4 or 16 bytes in network order; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Whether this is an IPv4 address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// The range this address falls in when it is not a public unicast address, else `nil`.
    public var specialRange: SpecialRange? {
        isIPv4 ? Self.ipv4Range(of: bytes) : Self.ipv6Range(of: bytes)
    }

    /// Dotted decimal for IPv4; lowercase, zero-compressed hex groups for IPv6 (RFC 5952 §4), written as URLs
    /// write them (`URLCanonical`'s one serializer).
    public var description: String {
        if isIPv4 { return IPAddressText.serializeIPv4(bytes.reduce(0) { $0 << 8 | UInt32($1) }) }
        return IPAddressText.serializeIPv6(
            stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) })
    }

    /// A kind of address that is not publicly routable unicast.
    public enum SpecialRange: String, Sendable, Hashable {
        /// `0.0.0.0/8`, `::/128`: "this host".
        case unspecified
        /// `127.0.0.0/8`, `::1`.
        case loopback
        /// `10/8`, `172.16/12`, `192.168/16`, `fc00::/7`, `fec0::/10`.
        case `private`
        /// `100.64/10`: carrier-grade NAT.
        case sharedAddressSpace
        /// `169.254/16`, `fe80::/10`.
        case linkLocal
        /// `224/4`, `ff00::/8`.
        case multicast
        /// `240/4`, `255.255.255.255`, documentation, benchmarking and protocol-assignment ranges.
        case reserved
    }

    private static func ipv4Range(of b: [UInt8]) -> SpecialRange? {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): return .unspecified
        case (10, _, _): return .private
        case (100, 64...127, _): return .sharedAddressSpace
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (172, 16...31, _): return .private
        case (192, 0, 0), (192, 0, 2), (192, 88, 99): return .reserved
        case (192, 168, _): return .private
        case (198, 18...19, _), (198, 51, 100), (203, 0, 113): return .reserved
        case (224...239, _, _): return .multicast
        case (240...255, _, _): return .reserved
        default: return nil
        }
    }

    private static func ipv6Range(of b: [UInt8]) -> SpecialRange? {
        let prefix = b[0..<12]
        // IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) carry an IPv4 address that decides.
        if prefix.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])
            || prefix.elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
        {
            return ipv4Range(of: Array(b[12..<16]))
        }
        if b[0..<15].allSatisfy({ $0 == 0 }) {
            return b[15] == 1 ? .loopback : b[15] == 0 ? .unspecified : .reserved
        }
        switch (b[0], b[1]) {
        case (0xfc...0xfd, _): return .private
        case (0xfe, 0x80...0xbf): return .linkLocal
        case (0xfe, 0xc0...0xff): return .private
        case (0xff, _): return .multicast
        // 2002::/16 (6to4) embeds an IPv4 address in bytes 2–5.
        case (0x20, 0x02): return ipv4Range(of: Array(b[2..<6]))
        // 2001::/23 holds Teredo, benchmarking, ORCHID; 2001:db8::/32 is documentation.
        case (0x20, 0x01) where b[2] < 0x02 || (b[2] == 0x0d && b[3] == 0xb8): return .reserved
        case (0x01, 0x00) where b[2...7].allSatisfy({ $0 == 0 }): return .reserved  // 100::/64 discard
        default: return nil
        }
    }
}
