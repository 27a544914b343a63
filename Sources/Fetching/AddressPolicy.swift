/// Which peer addresses a transfer may connect to.
///
/// The check runs on the address libcurl is about to open a socket to, after DNS
/// resolution and for every connection a transfer makes, so a name that resolves to
/// a private address, or a redirect to one, is refused, and the address checked is the
/// address used: DNS rebinding between check and connect is impossible.
public struct AddressPolicy: Sendable, Hashable {
    /// The special ranges that are allowed despite being special.
    public var allowedRanges: Set<IPAddress.SpecialRange>
    /// Individual addresses allowed although their range is not (one intranet host, say).
    public var allowedAddresses: Set<IPAddress>

    /// Creates a policy allowing public unicast addresses plus `allowedRanges` and `allowedAddresses`.
    public init(
        allowing allowedRanges: Set<IPAddress.SpecialRange> = [], addresses allowedAddresses: Set<IPAddress> = []
    ) {
        self.allowedRanges = allowedRanges
        self.allowedAddresses = allowedAddresses
    }

    /// Public unicast addresses only: the default for crawling the web.
    public static let publicOnly = AddressPolicy()

    /// Every address, including loopback and private networks (`--allow-private-network`):
    /// for tests and intranets.
    public static let allowAll = AddressPolicy(allowing: [
        .unspecified, .loopback, .private, .sharedAddressSpace, .linkLocal, .multicast, .reserved,
    ])

    /// Whether a connection to `address` is allowed.
    public func allows(_ address: IPAddress) -> Bool {
        guard let range = address.specialRange else { return true }
        return allowedRanges.contains(range) || allowedAddresses.contains(address)
    }
}
