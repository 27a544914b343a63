import Bridge
import Store

/// What a publish reads, from one consistent snapshot of the store on either engine (the rows of
/// `Store/PublishRows`, as ``PublishStore`` hands them over), each row taken as the bridge's record by
/// `PublishSnapshot+Rows.swift`.
struct PublishSnapshot: PublishSnapshotSink {
    var settings = IndexSettings()
    var input = BridgeInput()
    var storedClusters: [String: StoredClusterRow] = [:]
    /// The last publish this snapshot saw: the write checks that no other publish committed since.
    var lastPublishID: Int64 = 0
    /// Never-stored records by reason, and activities still below the threshold.
    var recordCounts: [String: Int] = [:]

    mutating func begin(settings stored: DonationSettings, lastPublishID: Int64) -> Int {
        settings = IndexSettings(stored)
        self.lastPublishID = lastPublishID
        return settings.engagementThreshold
    }

    /// Takes the counts of records never stored and of activities below the threshold.
    mutating func take(recordCounts counts: (withheld: [String: Int], belowThreshold: Int)) {
        recordCounts = counts.withheld
        if counts.belowThreshold > 0 {
            recordCounts[WithholdReason.belowEngagementThreshold.rawValue, default: 0] += counts.belowThreshold
        }
    }
}
