import Foundation

@testable import Donations

/// The reader as it was before the strict parser: Foundation's `JSONDecoder` over the records' Codable
/// conformances. Kept here only as the reference the differential tests compare the import with.
enum LegacyDonationParser {
    static func parse(_ line: [UInt8], file: String, number: Int) -> Result<DonationRecord, DonationIssue> {
        func issue(_ reason: String) -> Result<DonationRecord, DonationIssue> {
            .failure(DonationIssue(file: file, line: number, reason: reason))
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
                activity.userInfo = DonationParser.keptUserInfo(activity)
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
