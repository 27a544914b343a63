import Bridge
import Foundation
import Testing

@Suite struct DedupReportShapeTests {
    /// SPEC §6 names every key of the report; tools outside the project read them.
    @Test func jsonKeysAreTheSpecsNames() throws {
        let report = DedupReport(
            summary: .init(
                pages: 1, activities: 2, searchableItems: 1, clusters: 1, published: 1, duplicatesMerged: 2,
                withheld: ["belowEngagementThreshold": 4]),
            clusters: [
                .init(
                    id: "https://example.com/", published: true, reason: "published", matchedBy: ["webpageURL"],
                    members: [.init(source: "web", id: "https://example.com/", url: "https://example.com/")])
            ])
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(
            Set(summary.keys)
                == ["pages", "activities", "searchableItems", "clusters", "published", "duplicatesMerged", "withheld"])
        let cluster = try #require((object["clusters"] as? [[String: Any]])?.first)
        #expect(Set(["id", "published", "reason", "matchedBy", "members"]).isSubset(of: cluster.keys))
        let member = try #require((cluster["members"] as? [[String: Any]])?.first)
        #expect(Set(["source", "id", "url"]).isSubset(of: member.keys))
    }

    @Test func withholdReasonsHaveDistinctKeysAndExplanations() {
        let keys = WithholdReason.allCases.map(\.rawValue)
        #expect(Set(keys).count == keys.count)
        #expect(WithholdReason.allCases.allSatisfy { !$0.explanation.isEmpty })
        #expect(WithholdReason(rawValue: "belowEngagementThreshold") == .belowEngagementThreshold)
    }
}
