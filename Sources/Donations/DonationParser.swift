import Foundation

/// A donation line that cannot be imported: where it is and why.
public struct DonationIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or `-` for standard input).
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// Why, naming the field when one is at fault.
    public var reason: String

    /// Creates an issue.
    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: reason`.
    public var description: String { "\(file):\(line): \(reason)" }
}

/// Reads and validates one line of a donation file (SPEC §6).
public enum DonationParser {
    /// The longest line read, in bytes; longer lines are refused without being parsed.
    public static let maxLineBytes = 1 << 20

    /// The record on `line`, or why it cannot be imported. Of `userInfo`, only the keys named in
    /// `requiredUserInfoKeys` are kept (SPEC §4).
    public static func parse(_ line: some Collection<UInt8>, file: String, number: Int) -> Result<
        DonationRecord, DonationIssue
    > {
        func issue(_ reason: String) -> Result<DonationRecord, DonationIssue> {
            .failure(DonationIssue(file: file, line: number, reason: reason))
        }
        guard line.count <= maxLineBytes else {
            return issue("line longer than \(maxLineBytes) bytes")
        }
        let data = Data(line)
        let type: String
        do {
            type = try JSONDecoder().decode(TypeProbe.self, from: data).type
        } catch {
            return issue(describe(error, fallback: "not a JSON object with a string 'type'"))
        }
        do {
            let record: DonationRecord
            switch type {
            case "userActivity":
                var activity = try JSONDecoder().decode(UserActivityRecord.self, from: data)
                activity.userInfo = keptUserInfo(activity)
                record = .userActivity(activity)
            case "searchableItem":
                record = .searchableItem(try JSONDecoder().decode(SearchableItemRecord.self, from: data))
            case "delete":
                record = .delete(try JSONDecoder().decode(DeletionRecord.self, from: data))
            default:
                return issue("unknown type '\(type.prefix(64))' (userActivity, searchableItem or delete)")
            }
            if let problem = DonationValidation.problem(in: record) { return issue(problem) }
            return .success(record)
        } catch {
            return issue(describe(error, fallback: "invalid \(type) record"))
        }
    }

    /// Only the `requiredUserInfoKeys` values: the rest of `userInfo` is never stored.
    static func keptUserInfo(_ activity: UserActivityRecord) -> [String: DonationValue]? {
        guard let info = activity.userInfo, let keys = activity.requiredUserInfoKeys, !keys.isEmpty else {
            return nil
        }
        let kept = info.filter { keys.contains($0.key) }
        return kept.isEmpty ? nil : kept
    }

    /// A decoding error as a short reason naming the field.
    static func describe(_ error: any Error, fallback: String) -> String {
        guard let error = error as? DecodingError else { return fallback }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : keys.joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + ": "
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context))missing required field '\(key.stringValue)'"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context))expected \(typeName(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context))invalid value"
        @unknown default:
            return fallback
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [String].Type: "an array of strings"
        default: "a value of another kind"
        }
    }

    private struct TypeProbe: Decodable {
        let type: String
    }
}
