import StableHash

/// One cluster as the bridge decided it: its members (indices into ``BridgeInput``), how they were
/// joined, and whether and from what it is published.
package struct ClusterPlan: Sendable, Hashable {
    /// A stable key: the smallest URL key of the cluster, else the smallest other member key.
    package var key: String
    /// Indices into ``BridgeInput/pages``.
    package var pages: [Int]
    /// Indices into ``BridgeInput/activities``.
    package var activities: [Int]
    /// Indices into ``BridgeInput/items``.
    package var items: [Int]
    /// How members were joined (`canonical`, `redirect`, `webpageURL`, `relatedUniqueIdentifier`).
    package var matchedBy: [String]
    /// Why it is withheld, or `nil` when published.
    package var withheldReason: WithholdReason?
    /// The public page the published item is built from (index into pages), if any.
    package var representativePage: Int?
    /// The public activities that contribute fields and engagement, best first (indices).
    package var contributingActivities: [Int]
    /// Distinct donors of the contributing activities.
    package var engagement: Int
    /// Per member, `public` or the reason it is not: pages first, then activities, then items.
    package var pageStatus: [String]
    /// Per activity member (same order as ``activities``).
    package var activityStatus: [String]
    /// Per item member (same order as ``items``).
    package var itemStatus: [String]
    /// Covers every member's version and the rules in force: equal fingerprints, same decision
    /// (until ``validUntil``).
    package var fingerprint: UInt64
    /// The earliest time after the publish at which a member expires or goes stale.
    package var validUntil: Double?
    /// When the newest member was last seen.
    package var lastSeen: Double
    /// The earliest `expirationDate` of a contributing activity, if any.
    package var expiresAt: Double?

    /// Whether the cluster publishes an item.
    package var isPublished: Bool { withheldReason == nil }

    /// Pages and activities beyond the first, folded into the one published item.
    package var mergedDuplicates: Int { isPublished ? max(0, pages.count + activities.count - 1) : 0 }
}

/// The rules a publish applies (SPEC §4).
package struct EligibilityRules: Sendable, Hashable {
    /// Distinct donors an activity needs.
    package var engagementThreshold: Int
    /// Seconds after it was last seen that an item leaves the index.
    package var expirySeconds: Double
    /// The publish time (seconds since 1970).
    package var now: Double

    /// Creates rules.
    package init(engagementThreshold: Int, expirySeconds: Double, now: Double) {
        self.engagementThreshold = engagementThreshold
        self.expirySeconds = expirySeconds
        self.now = now
    }
}

/// Fields combined into one stable 64-bit FNV-1a hash: fingerprints must be equal across processes (Swift's
/// `Hasher` is seeded per process).
package struct StableHasher: Sendable {
    private var hasher = FNV1a()

    /// The hash of everything combined so far.
    package var value: UInt64 { hasher.value }

    /// A hasher with nothing combined.
    package init() {}

    /// Adds `text` (length-delimited).
    package mutating func combine(_ text: String) {
        for byte in text.utf8 { mix(byte) }
        mix(0xFF)  // separator: "ab","c" differs from "a","bc"
    }

    /// Adds `number`.
    package mutating func combine(_ number: UInt64) {
        var rest = number
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// Adds `number` (`nil` distinct from every number).
    package mutating func combine(_ number: Double?) { combine(number.map { $0.bitPattern } ?? 0x7FF8_DEAD_0000_0001) }

    private mutating func mix(_ byte: UInt8) {
        hasher.add(byte)
    }
}
