internal import StrictJSON

extension AssociationDecoder {
    /// The members of an object as a dictionary. A repeated key is an issue and the last value wins
    /// (as Foundation's `JSONSerialization` does); a key outside `known` is an issue and ignored.
    mutating func fields(_ members: [JSONMember], at path: JSONPath, known: Set<String>) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for member in members {
            if result[member.key] != nil {
                record(.duplicateKey, at: path.member(member.key), "appears more than once; the last value is used")
            } else if !known.contains(member.key) {
                record(.unknownKey, at: path.member(member.key), "is not a key of this object and is ignored")
            }
            result[member.key] = member.value
        }
        return result.filter { known.contains($0.key) }
    }

    mutating func record(_ kind: AppSiteAssociationIssue.Kind, at path: JSONPath, _ reason: String) {
        issues.append(AppSiteAssociationIssue(kind: kind, location: path.description, reason: reason))
    }

    /// The strings of an array (a single string is accepted with an issue); other elements are
    /// issues and skipped.
    mutating func strings(in value: JSONValue, at path: JSONPath, what: String) -> [String] {
        switch value {
        case .string(let single):
            record(.wrongType, at: path, "must be an array of strings, found one string (accepted)")
            return [single]
        case .array(let elements):
            var result: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let string) = element else {
                    record(
                        .wrongType, at: path.element(index),
                        "\(what) must be a string, found \(element.typeName); skipped")
                    continue
                }
                result.append(string)
            }
            return result
        default:
            record(.wrongType, at: path, "must be an array of strings, found \(value.typeName); ignored")
            return []
        }
    }

    /// A `defaults` object (file or entry level) applied over `inherited`. Apple calls it a
    /// "subclass of components" but only `caseSensitive` and `percentEncoded` have a meaning there.
    mutating func decodeDefaults(_ value: JSONValue?, at path: JSONPath, inherited: MatchOptions) -> MatchOptions {
        guard let value else { return inherited }
        guard case .object(let members) = value else {
            record(.wrongType, at: path, "must be an object, found \(value.typeName); ignored")
            return inherited
        }
        var options = inherited
        let defaults = fields(members, at: path, known: ["caseSensitive", "percentEncoded"])
        if let flag = boolean(defaults["caseSensitive"], at: path.member("caseSensitive"), consequence: "ignored") {
            options.caseSensitive = flag
        }
        if let flag = boolean(defaults["percentEncoded"], at: path.member("percentEncoded"), consequence: "ignored") {
            options.percentEncoded = flag
        }
        return options
    }

    /// The value as a boolean; nil (with an issue naming `consequence`) when it is another type.
    mutating func boolean(_ value: JSONValue?, at path: JSONPath, consequence: String) -> Bool? {
        switch value {
        case nil: return nil
        case .bool(let flag)?: return flag
        case let other?:
            record(.wrongType, at: path, "must be true or false, found \(other.typeName); \(consequence)")
            return nil
        }
    }

    /// `applinks.substitutionVariables`: name → array of values. Malformed names, values that are not
    /// strings, and values naming another variable are issues and skipped.
    mutating func decodeVariables(_ value: JSONValue, at path: JSONPath) -> [String: [String]] {
        guard case .object(let members) = value else {
            record(.wrongType, at: path, "must be an object, found \(value.typeName); ignored")
            return [:]
        }
        var variables: [String: [String]] = [:]
        for member in members {
            let memberPath = path.member(member.key)
            guard SubstitutionVariables.isValidName(member.key) else {
                record(.invalidVariable, at: memberPath, "a variable name must be non-empty without $, ( or ); skipped")
                continue
            }
            guard case .array = member.value else {
                record(
                    .invalidVariable, at: memberPath,
                    "must be an array of strings, found \(member.value.typeName); skipped")
                continue
            }
            var values: [String] = []
            for string in strings(in: member.value, at: memberPath, what: "value") {
                guard values.count < limits.maximumVariableValues else {
                    record(
                        .limitExceeded, at: memberPath,
                        "has more than \(limits.maximumVariableValues) values; the rest are ignored")
                    break
                }
                // A value stands in a pattern, so it is held to a pattern's length (which also bounds how
                // deep its trie runs).
                guard string.unicodeScalars.count <= limits.maximumPatternLength else {
                    record(
                        .limitExceeded, at: memberPath,
                        "a value is longer than \(limits.maximumPatternLength) characters; skipped")
                    continue
                }
                guard !string.contains("$(") else {
                    record(
                        .invalidVariable, at: memberPath,
                        "value \"\(string)\" uses another variable, which values cannot; skipped")
                    continue
                }
                values.append(string)
            }
            variables[member.key] = values
        }
        return variables
    }
}
