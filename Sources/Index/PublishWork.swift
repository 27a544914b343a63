import Bridge
import Foundation
import Items
import Store
internal import StrictJSON

/// One publish, computed from a read snapshot and then written in one transaction.
struct PublishWork {
    /// A cluster to insert or rewrite.
    struct Change {
        var storedID: Int64?
        var key: String
        var fingerprint: UInt64
        var reason: WithholdReason?
        var matchedBy: [String]
        var membersJSON: String
        var validUntil: Double?
        var item: PublicItemRow?
        /// The item's row of the gram index when it has text written without spaces and the store writes its
        /// full-text tables (SQLite), computed with the item while the previous chunk is written.
        var grams: GramRow?
        /// The representative page whose stored item did not decode, and why: the item was built as if
        /// the page had none.
        var unreadablePageItem: (url: String, error: ItemDecodingError)?
    }

    var summary = PublishSummary()
    var removed: [Int64] = []
    /// Clusters to insert or rewrite, with their stored row id when they exist. Their items are built
    /// while writing, a chunk at a time, so memory holds the plans but never a million built items.
    var changed: [(plan: ClusterPlan, storedID: Int64?)] = []
    var pending: [(key: String, url: String)] = []
    let input: BridgeInput
    let expirySeconds: Double
    let recordCounts: [String: Int]
    let lastPublishID: Int64

    /// Another publish committed between this one's snapshot and its write: compute again.
    struct Overtaken: Error {}

    init(snapshot: PublishSnapshot, now: Double) {
        input = snapshot.input
        let rules = EligibilityRules(
            engagementThreshold: snapshot.settings.engagementThreshold,
            expirySeconds: snapshot.settings.expiryDays * 86_400, now: now)
        expirySeconds = rules.expirySeconds
        let plans = Deduplicator.plan(input, rules: rules)
        recordCounts = snapshot.recordCounts
        lastPublishID = snapshot.lastPublishID
        summary.pages = input.pages.count
        summary.activities = input.activities.count
        summary.searchableItems = input.items.count
        summary.clusters = plans.count
        summary.duplicatesMerged = plans.reduce(0) { $0 + $1.mergedDuplicates }
        summary.engagementThreshold = rules.engagementThreshold
        summary.expiryDays = snapshot.settings.expiryDays
        summary.publishedAt = now

        var keys = Set<String>()
        keys.reserveCapacity(plans.count)
        for plan in plans {
            keys.insert(plan.key)
            for (position, index) in plan.activities.enumerated()
            where plan.activityStatus[position] == WithholdReason.awaitingCrawl.rawValue {
                let activity = input.activities[index]
                // The canonical key is the URL fetched (see `SQLiteStore.queueWebpageForCrawl`).
                if let key = activity.urlKey { pending.append((key, key)) }
            }
            let stored = snapshot.storedClusters[plan.key]
            if let stored, stored.fingerprint == plan.fingerprint, (stored.validUntil ?? .infinity) > now {
                summary.unchangedClusters += 1
            } else {
                changed.append((plan, stored?.id))
            }
        }
        removed = snapshot.storedClusters.compactMap { keys.contains($0.key) ? nil : $0.value.id }
        summary.removedClusters = removed.count
        summary.changedClusters = changed.count
    }

    /// What the items of a chunk of changed clusters are built from, read from the store.
    struct ChunkContent {
        /// The stored item JSON of the published clusters' representative pages.
        var pageItems: [String: String?]
        var activities: [Int64: ActivityContent]
        /// Distinct donors of the clusters with more than one contributing activity, by position in the chunk.
        var donors: [Int: Int]

        init(_ content: PublishChunkContent) {
            pageItems = content.pageItems
            activities = content.activities.mapValues(ActivityContent.init)
            donors = content.donors
        }
    }

    /// The pages and activities `chunk`'s published clusters read, and the activities whose donors count
    /// (keyed by position in the chunk).
    func contentNeeds(_ chunk: ArraySlice<(plan: ClusterPlan, storedID: Int64?)>) -> PublishChunkNeeds {
        let published = chunk.map(\.plan).filter(\.isPublished)
        let pages = published.compactMap { $0.representativePage.map { input.pages[$0].url } }
        let activities = published.flatMap { $0.contributingActivities.map { input.activities[$0].id } }
        let donorSets = chunk.enumerated().compactMap { position, entry in
            entry.plan.contributingActivities.count > 1
                ? (position, entry.plan.contributingActivities.map { input.activities[$0].id }) : nil
        }
        return PublishChunkNeeds(pages: pages, activities: activities, donorSets: donorSets)
    }

    /// The cluster rows and items of `chunk`, built from `content`; with `fullText`, also the items' gram rows.
    func changes(
        _ chunk: ArraySlice<(plan: ClusterPlan, storedID: Int64?)>, content: ChunkContent, fullText: Bool
    ) -> [Change] {
        chunk.enumerated().map { position, entry in
            var plan = entry.plan
            // One donor of two activities of the cluster counts once (the plan only summed them).
            if let donors = content.donors[position] { plan.engagement = donors }
            var reason = plan.withheldReason
            var item: PublicItemRow?
            var unreadable: (url: String, error: ItemDecodingError)?
            if plan.isPublished {
                // Published under the page's canonical key (SPEC §4): never a tracking parameter or a
                // fragment, whichever spelling of the URL was linked or donated first.
                let page = plan.representativePage.map { input.pages[$0] }.map { page in
                    let stored = Self.storedItem(content.pageItems[page.url] ?? nil)
                    if case .failure(let error) = stored { unreadable = (page.url, error) }
                    return (canonicalURL: page.key, item: try? stored.get())
                }
                item = PublishedItemBuilder.build(
                    plan: plan, activityIDs: plan.contributingActivities.map { input.activities[$0].id }, page: page,
                    contents: content.activities, expirySeconds: expirySeconds)
                if item == nil { reason = .noTitle }
            }
            return Change(
                storedID: entry.storedID, key: plan.key, fingerprint: plan.fingerprint, reason: reason,
                matchedBy: plan.matchedBy, membersJSON: Self.membersJSON(plan, input: input),
                validUntil: plan.validUntil, item: item,
                grams: !fullText
                    ? nil
                    : item.flatMap {
                        GramText.row(title: $0.title, description: $0.description, keywords: $0.keywords)
                    },
                unreadablePageItem: unreadable)
        }
    }

    /// A page's stored item decoded (``SearchableItem/init(jsonText:)``); `nil` when the page stored none
    /// (a page crawled as `noindex`, or gone).
    static func storedItem(_ text: String?) -> Result<SearchableItem?, ItemDecodingError> {
        guard let text else { return .success(nil) }
        return Result { () throws(ItemDecodingError) in try SearchableItem(jsonText: text) }
    }

    /// The report's member list of `plan`, as JSON (SPEC §6 member shape plus `status`).
    static func membersJSON(_ plan: ClusterPlan, input: BridgeInput) -> String {
        var members: [JSONValue] = []
        func member(_ source: String, _ id: String, url: String?, bundle: String?, status: String) {
            var fields: [JSONMember] = [JSONMember("source", .string(source)), JSONMember("id", .string(id))]
            if let url { fields.append(JSONMember("url", .string(url))) }
            if let bundle { fields.append(JSONMember("bundleIdentifier", .string(bundle))) }
            fields.append(JSONMember("status", .string(status)))
            members.append(.object(fields))
        }
        for (position, index) in plan.pages.enumerated() {
            let page = input.pages[index]
            member("web", page.url, url: page.url, bundle: nil, status: plan.pageStatus[position])
        }
        for (position, index) in plan.activities.enumerated() {
            let activity = input.activities[index]
            member(
                "activity", activity.displayID, url: activity.webpageURL, bundle: activity.bundleIdentifier,
                status: plan.activityStatus[position])
        }
        for (position, index) in plan.items.enumerated() {
            let item = input.items[index]
            member(
                "searchableItem", item.uniqueIdentifier, url: nil, bundle: item.bundleIdentifier,
                status: plan.itemStatus[position])
        }
        return JSONValue.array(members).serialized()
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
