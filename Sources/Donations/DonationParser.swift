internal import StrictJSON

/// A donation line that cannot be imported: where it is and why.
package struct DonationIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or `-` for standard input).
    package var file: String
    /// The 1-based line number; 0 for the file as a whole.
    package var line: Int
    /// Why, naming the field when one is at fault.
    package var reason: String
    /// The line's `bundleIdentifier` when it is a JSON object with that key as a string, though its record
    /// was refused: a server refuses a body naming a bundle its token is not for, valid or not.
    package var bundleIdentifier: String?

    /// Creates an issue.
    package init(file: String, line: Int, reason: String, bundleIdentifier: String? = nil) {
        self.file = file
        self.line = line
        self.reason = reason
        self.bundleIdentifier = bundleIdentifier
    }

    /// `file:line: reason`, or `file: reason` for the file as a whole (line 0: it could not be opened).
    package var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}

/// Reads and validates one line of a donation file (SPEC §6).
///
/// Each line is parsed once with the strict JSON parser and mapped to its record by hand: unknown
/// keys are ignored, a repeated key keeps its first value, and fields are checked in the order the
/// record types declare them, so the reasons are those `JSONDecoder` gave (see `FieldReader`).
package enum DonationParser {
    /// The longest line read, in bytes; longer lines are refused without being parsed.
    package static let maxLineBytes = 1 << 20

    /// Arrays and objects nested deeper than this are not valid JSON here (as for `JSONDecoder`).
    static let maxDepth = 512

    /// The record on `line`, or why it cannot be imported. Of `userInfo`, only the keys named in
    /// `requiredUserInfoKeys` are kept (SPEC §4).
    package static func parse(_ line: some Collection<UInt8>, file: String, number: Int) -> Result<
        DonationRecord, DonationIssue
    > {
        if let result = line.withContiguousStorageIfAvailable({ parse(buffer: $0, file: file, number: number) }) {
            return result
        }
        return Array(line).withUnsafeBufferPointer { parse(buffer: $0, file: file, number: number) }
    }

    /// ``parse(_:file:number:)`` over bytes in memory.
    static func parse(buffer line: UnsafeBufferPointer<UInt8>, file: String, number: Int) -> Result<
        DonationRecord, DonationIssue
    > {
        func issue(_ reason: String) -> Result<DonationRecord, DonationIssue> {
            .failure(DonationIssue(file: file, line: number, reason: reason))
        }
        guard line.count <= maxLineBytes else {
            return issue("line longer than \(maxLineBytes) bytes")
        }
        // A byte order mark opening the line is skipped, as JSONDecoder does.
        let start = line.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let root: JSONValue
        do {
            root = try JSONParser.parse(line, from: start, options: JSONParser.Options(maximumDepth: maxDepth))
        } catch {
            return issue("not valid JSON")
        }
        guard case .object(let members) = root else {
            return issue("not a JSON object with a string 'type'")
        }
        func refused(_ reason: String) -> Result<DonationRecord, DonationIssue> {
            var named: String?
            if case .string(let bundle) = FieldReader.first("bundleIdentifier", in: members) { named = bundle }
            return .failure(DonationIssue(file: file, line: number, reason: reason, bundleIdentifier: named))
        }
        do {
            let record: DonationRecord
            let type = try FieldReader.requiredString(FieldReader.first("type", in: members), "type", in: .root)
            switch type {
            case "userActivity":
                var activity = try UserActivityRecord(reading: members)
                activity.userInfo = keptUserInfo(activity)
                record = .userActivity(activity)
            case "searchableItem":
                record = .searchableItem(try SearchableItemRecord(reading: members))
            case "delete":
                record = .delete(try DeletionRecord(reading: members))
            default:
                return refused("unknown type '\(type.prefix(64))' (userActivity, searchableItem or delete)")
            }
            if let problem = DonationValidation.problem(in: record) { return refused(problem) }
            return .success(record)
        } catch {
            return refused(error.reason)
        }
    }

    /// Only the `requiredUserInfoKeys` values: the rest of `userInfo` is never stored. One hashed look-up
    /// per required key (both lists are at most ``DonationValidation/maxListCount`` long).
    static func keptUserInfo(_ activity: UserActivityRecord) -> [String: JSONValue]? {
        guard let info = activity.userInfo, let keys = activity.requiredUserInfoKeys, !keys.isEmpty else {
            return nil
        }
        var kept: [String: JSONValue] = [:]
        for key in keys where kept[key] == nil {
            if let value = info[key] { kept[key] = value }
        }
        return kept.isEmpty ? nil : kept
    }
}
