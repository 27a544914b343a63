import Foundation
internal import PlainText
internal import URLCanonical

/// The checks a decoded record passes before import: required fields present and non-empty,
/// URLs absolute `http`/`https`, dates ISO 8601, sizes bounded (SPEC §5: every input is untrusted).
enum DonationValidation {
    /// Identifiers, titles and other short strings, in characters.
    static let maxShortString = 1024
    /// `contentDescription`, in characters.
    static let maxDescription = 10_000
    /// URLs, in bytes.
    static let maxURLBytes = 4096
    /// Keywords per record, identifiers per deletion, keys in `requiredUserInfoKeys`, members of `userInfo`.
    /// The reader refuses a longer list before it reads an entry (``FieldReader``), so no check on a list
    /// costs more than this many entries.
    static let maxListCount = 1000

    /// The first problem of `record`, or `nil` when it may be imported.
    static func problem(in record: DonationRecord) -> String? {
        switch record {
        case .userActivity(let activity): return problem(in: activity)
        case .searchableItem(let item): return problem(in: item)
        case .delete(let deletion): return problem(in: deletion)
        }
    }

    private static func problem(in activity: UserActivityRecord) -> String? {
        let checks: [String?] = [
            required("bundleIdentifier", activity.bundleIdentifier), required("donor", activity.donor),
            required("activityType", activity.activityType), short("title", activity.title),
            url("webpageURL", activity.webpageURL), list("requiredUserInfoKeys", activity.requiredUserInfoKeys),
            list("keywords", activity.keywords), short("persistentIdentifier", activity.persistentIdentifier),
            identifier("bundleIdentifier", activity.bundleIdentifier),
            identifier("activityType", activity.activityType),
            identifier("persistentIdentifier", activity.persistentIdentifier),
            date("expirationDate", activity.expirationDate),
            activity.contentAttributeSet.flatMap { problem(in: $0, at: "contentAttributeSet") },
        ]
        return checks.lazy.compactMap { $0 }.first
    }

    private static func problem(in item: SearchableItemRecord) -> String? {
        let checks: [String?] = [
            required("bundleIdentifier", item.bundleIdentifier), required("uniqueIdentifier", item.uniqueIdentifier),
            short("domainIdentifier", item.domainIdentifier), date("expirationDate", item.expirationDate),
            identifier("bundleIdentifier", item.bundleIdentifier),
            identifier("uniqueIdentifier", item.uniqueIdentifier),
            identifier("domainIdentifier", item.domainIdentifier),
            item.attributeSet.flatMap { problem(in: $0, at: "attributeSet") },
        ]
        return checks.lazy.compactMap { $0 }.first
    }

    private static func problem(in deletion: DeletionRecord) -> String? {
        if let problem = required("bundleIdentifier", deletion.bundleIdentifier)
            ?? identifier("bundleIdentifier", deletion.bundleIdentifier)
        {
            return problem
        }
        let ways = [deletion.uniqueIdentifiers != nil, deletion.domainIdentifiers != nil, deletion.all != nil]
        guard ways.filter({ $0 }).count == 1 else {
            return "a delete record needs exactly one of 'uniqueIdentifiers', 'domainIdentifiers' or 'all'"
        }
        if let identifiers = deletion.uniqueIdentifiers ?? deletion.domainIdentifiers {
            let name = deletion.uniqueIdentifiers != nil ? "uniqueIdentifiers" : "domainIdentifiers"
            guard !identifiers.isEmpty else { return "\(name): must not be empty" }
            if let problem = list(name, identifiers) { return problem }
            if identifiers.contains(where: \.isEmpty) { return "\(name): an identifier is empty" }
            if let problem = identifiers.lazy.compactMap({ identifier(name, $0) }).first { return problem }
        }
        if deletion.all == false { return "all: must be true when given" }
        return nil
    }

    private static func problem(in attributes: DonatedAttributes, at prefix: String) -> String? {
        let checks: [String?] = [
            short("\(prefix).title", attributes.title),
            bounded("\(prefix).contentDescription", attributes.contentDescription, limit: maxDescription),
            url("\(prefix).thumbnailURL", attributes.thumbnailURL), url("\(prefix).contentURL", attributes.contentURL),
            list("\(prefix).keywords", attributes.keywords),
            short("\(prefix).relatedUniqueIdentifier", attributes.relatedUniqueIdentifier),
            short("\(prefix).weakRelatedUniqueIdentifier", attributes.weakRelatedUniqueIdentifier),
            short("\(prefix).domainIdentifier", attributes.domainIdentifier),
            identifier("\(prefix).relatedUniqueIdentifier", attributes.relatedUniqueIdentifier),
            identifier("\(prefix).weakRelatedUniqueIdentifier", attributes.weakRelatedUniqueIdentifier),
            identifier("\(prefix).domainIdentifier", attributes.domainIdentifier),
            rating("\(prefix).rating", attributes.rating),
            (attributes.ratingCount ?? 0) < 0 ? "\(prefix).ratingCount: must not be negative" : nil,
        ]
        return checks.lazy.compactMap { $0 }.first
    }

    private static func required(_ name: String, _ value: String) -> String? {
        // Fast path: an ASCII first byte other than space and tab is no `.whitespaces` member, so
        // trimming (costly on Linux, through NSString) cannot leave the string empty.
        if let first = value.utf8.first, first < 0x80, first != 0x20, first != 0x09 { return short(name, value) }
        return value.trimmingCharacters(in: .whitespaces).isEmpty ? "\(name): must not be empty" : short(name, value)
    }

    /// Identifiers are kept exactly as donated (they are matched against each other), so one holding a
    /// control character is refused rather than changed: it would reach the report and the terminal.
    private static func identifier(_ name: String, _ value: String?) -> String? {
        guard let value, PlainText.containsControl(value) else { return nil }
        return "\(name): contains a control character"
    }

    private static func short(_ name: String, _ value: String?) -> String? {
        bounded(name, value, limit: maxShortString)
    }

    private static func bounded(_ name: String, _ value: String?, limit: Int) -> String? {
        // A string has at most as many characters as UTF-8 bytes: count characters only when needed.
        guard let value, value.utf8.count > limit, value.count > limit else { return nil }
        return "\(name): longer than \(limit) characters"
    }

    /// Each entry short; the count was checked when the list was read.
    private static func list(_ name: String, _ values: [String]?) -> String? {
        guard let values else { return nil }
        return values.lazy.compactMap { short(name, $0) }.first
    }

    private static func url(_ name: String, _ value: String?) -> String? {
        guard let value else { return nil }
        guard value.utf8.count <= maxURLBytes else { return "\(name): longer than \(maxURLBytes) bytes" }
        guard WebURL.isHTTP(value) else {
            return "\(name): not an absolute http or https URL: '\(value.prefix(80))'"
        }
        return nil
    }

    private static func date(_ name: String, _ value: String?) -> String? {
        guard let value else { return nil }
        return DonationDates.isValid(value) ? nil : "\(name): not an ISO 8601 date: '\(value.prefix(40))'"
    }

    private static func rating(_ name: String, _ value: Double?) -> String? {
        guard let value else { return nil }
        return value.isFinite && value >= 0 ? nil : "\(name): must be a finite number ≥ 0"
    }
}
