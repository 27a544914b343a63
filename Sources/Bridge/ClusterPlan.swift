/// One cluster as the bridge decided it: its members (indices into ``BridgeInput``), how they were
/// joined, and whether and from what it is published.
public struct ClusterPlan: Sendable, Hashable {
    /// A stable key: the smallest URL key of the cluster, else the smallest other member key.
    public var key: String
    /// Indices into ``BridgeInput/pages``.
    public var pages: [Int]
    /// Indices into ``BridgeInput/activities``.
    public var activities: [Int]
    /// Indices into ``BridgeInput/items``.
    public var items: [Int]
    /// How members were joined (`canonical`, `redirect`, `webpageURL`, `relatedUniqueIdentifier`).
    public var matchedBy: [String]
    /// Why it is withheld, or `nil` when published.
    public var withheldReason: WithholdReason?
    /// The public page the published item is built from (index into pages), if any.
    public var representativePage: Int?
    /// The public activities that contribute fields and engagement, best first (indices).
    public var contributingActivities: [Int]
    /// Distinct donors of the contributing activities.
    public var engagement: Int
    /// Per member, `public` or the reason it is not: pages first, then activities, then items.
    public var pageStatus: [String]
    /// Per activity member (same order as ``activities``).
    public var activityStatus: [String]
    /// Per item member (same order as ``items``).
    public var itemStatus: [String]
    /// Covers every member's version and the rules in force: equal fingerprints, same decision
    /// (until ``validUntil``).
    public var fingerprint: UInt64
    /// The earliest time after the publish at which a member expires or goes stale.
    public var validUntil: Double?
    /// When the newest member was last seen.
    public var lastSeen: Double
    /// The earliest `expirationDate` of a contributing activity, if any.
    public var expiresAt: Double?

    /// Whether the cluster publishes an item.
    public var isPublished: Bool { withheldReason == nil }

    /// Pages and activities beyond the first, folded into the one published item.
    public var mergedDuplicates: Int { isPublished ? max(0, pages.count + activities.count - 1) : 0 }
}

/// The rules a publish applies (SPEC §4).
public struct EligibilityRules: Sendable, Hashable {
    /// Distinct donors an activity needs.
    public var engagementThreshold: Int
    /// Seconds after it was last seen that an item leaves the index.
    public var expirySeconds: Double
    /// The publish time (seconds since 1970).
    public var now: Double

    /// Creates rules.
    public init(engagementThreshold: Int, expirySeconds: Double, now: Double) {
        self.engagementThreshold = engagementThreshold
        self.expirySeconds = expirySeconds
        self.now = now
    }
}

/// Stable 64-bit FNV-1a: fingerprints must be equal across processes (Swift's `Hasher` is seeded per process).
public struct StableHasher: Sendable {
    /// The hash of everything combined so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hasher with nothing combined.
    public init() {}

    /// Adds `text` (length-delimited).
    public mutating func combine(_ text: String) {
        for byte in text.utf8 { mix(byte) }
        mix(0xFF)  // separator: "ab","c" differs from "a","bc"
    }

    /// Adds `number`.
    public mutating func combine(_ number: UInt64) {
        var rest = number
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// Adds `number` (`nil` distinct from every number).
    public mutating func combine(_ number: Double?) { combine(number.map { $0.bitPattern } ?? 0x7FF8_DEAD_0000_0001) }

    private mutating func mix(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }
}
