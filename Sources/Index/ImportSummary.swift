import Donations

/// What an import did. Counts are of records read in this run; importing the same file again reads
/// the same records and changes nothing in the store (``newDonations`` and ``storedActivities`` are 0).
package struct ImportSummary: Sendable, Hashable, Codable {
    /// Files read.
    package var files: Int = 0
    /// Records read (valid lines).
    package var records: Int = 0
    /// Lines that could not be imported (bad JSON, failed validation).
    package var rejected: Int = 0
    /// Files that could not be opened, or failed part-way (their issue is listed; the other files were
    /// imported, and so were the records an unreadable file gave before it failed).
    package var unreadableFiles: Int = 0
    /// Activity donations from a donor not counted before for that activity.
    package var newDonations: Int = 0
    /// Activities whose content was stored or changed (they reached the engagement threshold).
    package var storedActivities: Int = 0
    /// Activity records whose activity is still below the engagement threshold (only hashes kept).
    package var belowThreshold: Int = 0
    /// Searchable items added or changed.
    package var searchableItems: Int = 0
    /// Delete records applied.
    package var deletions: Int = 0
    /// Searchable items removed by deletions.
    package var deletedItems: Int = 0
    /// Activities removed because a deletion removed the item they name.
    package var deletedActivities: Int = 0
    /// Activity records counted but not stored, by reason (`notEligibleForPublicIndexing`, …).
    package var withheld: [String: Int] = [:]
    /// The engagement threshold in force.
    package var engagementThreshold: Int = 0
    /// The first issues, located (`file:line: reason`); ``rejected`` counts them all.
    package var issues: [String] = []

    /// How many issues are listed at most.
    package static let listedIssues = 100

    /// Creates an empty summary.
    package init() {}

    mutating func noteUnreadable(_ issue: DonationIssue) {
        unreadableFiles += 1
        issues.append(issue.description)
    }

    mutating func note(_ issue: DonationIssue) {
        rejected += 1
        if issues.count < Self.listedIssues { issues.append(issue.description) }
    }
}
