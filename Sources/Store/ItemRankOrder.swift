import Foundation

/// The static rank order of the public index: `public_item.id` (which is also the FTS5 rowid, the
/// order FTS5 walks its doclists in) puts more engaged items first, so a search over a large match
/// set can stop after the first page of matches in rowid order and still show the most engaged ones.
///
/// An id is `(bucketCount − 1 − bucket(boost)) << sequenceBits | sequence`: the boost
/// (`ln(1 + engagement)`) in buckets of a quarter in the high bits, highest bucket first, and below
/// them a store-wide counter (the `item_sequence` setting) that only grows, so ids are never reused
/// and an item published later sorts after the earlier ones of its bucket — also across incremental
/// publishes, which insert new items among the old ones by bucket.
package enum ItemRankOrder {
    /// The number of boost buckets; every boost of 15.75 and above (engagement ≥ ~6.9 million)
    /// shares the top one.
    package static let bucketCount: Int64 = 64
    /// Buckets per unit of boost.
    package static let bucketsPerBoost = 4.0
    /// Bits of the sequence below the bucket.
    package static let sequenceBits: Int64 = 40
    /// The largest sequence an id can hold (about 1.1 × 10¹²).
    package static let maxSequence: Int64 = (1 << sequenceBits) - 1
    /// The setting row that holds the next sequence.
    package static let sequenceSetting = "item_sequence"

    /// The bucket of `boost`: `min(bucketCount − 1, ⌊boost × 4⌋)`, 0 for a negative or non-finite
    /// boost.
    package static func bucket(boost: Double) -> Int64 {
        guard boost.isFinite, boost > 0 else { return boost == .infinity ? bucketCount - 1 : 0 }
        return Int64(min(Double(bucketCount - 1), (boost * bucketsPerBoost).rounded(.down)))
    }

    /// The id of an item with `boost`, published as number `sequence` of the store.
    package static func id(boost: Double, sequence: Int64) -> Int64 {
        (bucketCount - 1 - bucket(boost: boost)) << sequenceBits | (sequence & maxSequence)
    }

    /// An exclusive upper bound on the ids of items whose engagement is at least `engagement`, or
    /// `nil` when it bounds nothing (a least engagement within the lowest bucket: below ~0.28, so of
    /// whole engagements only 0 or less).
    ///
    /// It holds for every id the publisher gives (an item's id is in its boost's bucket, and the
    /// boost grows with the engagement) and for every id below `1 << sequenceBits` (the top
    /// bucket), so a search may add `id < bound` to an engagement condition without losing a match.
    /// The bucket is taken one notch low, so rounding at a bucket's edge cannot exclude an item.
    package static func idBound(engagementAtLeast engagement: Double) -> Int64? {
        guard engagement > 0 else { return nil }
        let lowest = bucket(boost: log(1 + min(engagement, 1e300)) * (1 - 1e-12))
        return lowest > 0 ? (bucketCount - lowest) << sequenceBits : nil
    }

    /// The bucket an id was given (its boost rounded down to a quarter, for ordering only).
    package static func bucket(id: Int64) -> Int64 { bucketCount - 1 - (id >> sequenceBits) }

    /// The boost an id stands for in SQL, over the id expression `id`: its bucket's lower bound
    /// plus half a bucket (within 0.125 of the item's boost), read without the item's row.
    package static func boostSQL(id: String) -> String {
        "((\(bucketCount - 1) - ((\(id)) >> \(sequenceBits))) / \(bucketsPerBoost) + \(0.5 / bucketsPerBoost))"
    }

    /// `id(boost:sequence:)` in SQL for the migration that re-numbers older stores, over columns
    /// `boost` and `sequence`.
    static func idSQL(boost: String, sequence: String) -> String {
        let top = bucketCount - 1
        let bucket = "max(0, min(\(top), CAST(\(boost) * \(bucketsPerBoost) AS INTEGER)))"
        return "((\(top) - \(bucket)) << \(sequenceBits)) | (\(sequence))"
    }
}
