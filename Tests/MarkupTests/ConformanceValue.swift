import Foundation
import Markup
import StrictJSON

/// A JSON value in the form both sides of the extruct conformance test are compared in.
///
/// The expected side comes from Foundation's `JSONSerialization` (independent of the project's own JSON parser, so a
/// parser bug cannot hide on both sides); the actual side is built by the adapter from `PageMarkup`. Objects are
/// dictionaries, as in Python, so key order never matters. One case exists only on the actual side: ``url(_:)``, a
/// URL the project resolved, which matches an expected string that resolves to it (see
/// ``ConformanceComparison``).
indirect enum ConformanceValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// An absolute URL the project resolved against the page URL.
    case url(String)
    case array([ConformanceValue])
    case object([String: ConformanceValue])

    /// Parses JSON text with Foundation.
    init(json data: Data) throws {
        self = try Self(foundation: JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    /// Converts what `JSONSerialization` returns. Booleans are the `NSNumber`s whose C type is `char`.
    init(foundation value: Any) throws {
        switch value {
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let number as NSNumber:
            let isBool = String(cString: number.objCType) == "c"
            self = isBool ? .bool(number.boolValue) : .number(number.doubleValue)
        case let list as [Any]: self = .array(try list.map(Self.init(foundation:)))
        case let members as [String: Any]: self = .object(try members.mapValues(Self.init(foundation:)))
        default: throw ConformanceError("unexpected JSON value \(value)")
        }
    }

    /// Converts a JSON-LD value as the project parsed it. A repeated key keeps its last value, as Python's `json` does.
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = Double(number.literal).map(Self.number) ?? .string(number.literal)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(Self.init))
        case .object(let members):
            var object: [String: ConformanceValue] = [:]
            for member in members { object[member.key] = Self(member.value) }
            self = .object(object)
        }
    }

    /// Python's truth value, which extruct's `if item` filters on: `null`, `false`, `0`, `""`, `[]` and `{}` are false.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text), .url(let text): return !text.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        }
    }

    /// The members of an object; `nil` for other values.
    var objectValue: [String: ConformanceValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array; `nil` for other values.
    var arrayValue: [ConformanceValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text of a string or URL; `nil` for other values.
    var stringValue: String? {
        switch self {
        case .string(let text), .url(let text): return text
        default: return nil
        }
    }

    /// Compact JSON with sorted keys; a URL prints as a string. Used for messages and as a canonical sort key.
    var canonicalText: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let text), .url(let text): return JSONValue.string(text).serialized()
        case .array(let elements): return "[" + elements.map(\.canonicalText).joined(separator: ",") + "]"
        case .object(let members):
            let pairs = members.sorted { $0.key < $1.key }.map {
                JSONValue.string($0.key).serialized() + ":" + $0.value.canonicalText
            }
            return "{" + pairs.joined(separator: ",") + "}"
        }
    }

    /// The value with every run of white space in a string made one space, and the ends trimmed; URLs are left alone.
    var collapsingWhitespace: ConformanceValue {
        switch self {
        case .string(let text): return .string(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        case .array(let elements): return .array(elements.map(\.collapsingWhitespace))
        case .object(let members): return .object(members.mapValues(\.collapsingWhitespace))
        default: return self
        }
    }

    /// The value with every array sorted by canonical text, recursively, and URLs made plain strings: the form in which
    /// extruct's RDFa test compares (its `tupleize` sorts every list).
    var sortedRecursively: ConformanceValue {
        switch self {
        case .url(let text): return .string(text)
        case .array(let elements):
            return .array(elements.map(\.sortedRecursively).sorted { $0.canonicalText < $1.canonicalText })
        case .object(let members): return .object(members.mapValues(\.sortedRecursively))
        default: return self
        }
    }
}

/// A problem reading a conformance fixture (not a conformance difference).
struct ConformanceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Compares the adapter's output with extruct's expected output and describes the first difference.
///
/// Two modes, following the manifest's `compare` field:
/// - ordered (extruct's `assertEqual`): objects compare as dictionaries, arrays element by element;
/// - graph (extruct's `assertJsonLDEqual` for RDFa): blank nodes are relabelled canonically on both sides, then every
///   array is sorted before the ordered comparison.
///
/// In both modes a URL the project resolved (``ConformanceValue/url(_:)``) matches an expected string that is the same
/// URL or resolves to it against the page URL: extruct leaves references relative when no `base_url` is given, the
/// project always resolves them (its output is meant to be used without the page).
struct ConformanceComparison {
    /// The URL relative references resolve against.
    let pageURL: String

    /// `nil` when `actual` matches `expected`, else where and how they differ.
    func difference(_ actual: ConformanceValue, _ expected: ConformanceValue, graph: Bool) -> String? {
        guard graph else { return difference(actual, expected, path: "$") }
        let canonicalActual = Self.relabellingBlankNodes(actual).sortedRecursively
        let canonicalExpected = Self.relabellingBlankNodes(expected).sortedRecursively
        return difference(canonicalActual, canonicalExpected, path: "$")
    }

    private func difference(_ actual: ConformanceValue, _ expected: ConformanceValue, path: String) -> String? {
        switch (actual, expected) {
        case (.url(let url), .string(let text)):
            return url == text || resolve(text) == url ? nil : mismatch(path, actual, expected)
        case (.object(let actualMembers), .object(let expectedMembers)):
            let missing = Set(expectedMembers.keys).subtracting(actualMembers.keys).sorted()
            let extra = Set(actualMembers.keys).subtracting(expectedMembers.keys).sorted()
            if !missing.isEmpty || !extra.isEmpty {
                return "\(path): keys differ; missing \(missing), unexpected \(extra)\n  actual:   "
                    + "\(actual.canonicalText.prefix(600))\n  expected: \(expected.canonicalText.prefix(600))"
            }
            for key in expectedMembers.keys.sorted() {
                if let actualValue = actualMembers[key], let expectedValue = expectedMembers[key],
                    let found = difference(actualValue, expectedValue, path: "\(path).\(key)")
                {
                    return found
                }
            }
            return nil
        case (.array(let actualElements), .array(let expectedElements)):
            guard actualElements.count == expectedElements.count else {
                return "\(path): \(actualElements.count) elements instead of \(expectedElements.count)\n  actual:   "
                    + "\(actual.canonicalText.prefix(600))\n  expected: \(expected.canonicalText.prefix(600))"
            }
            for (index, pair) in zip(actualElements, expectedElements).enumerated() {
                if let found = difference(pair.0, pair.1, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return actual == expected ? nil : mismatch(path, actual, expected)
        }
    }

    private func mismatch(_ path: String, _ actual: ConformanceValue, _ expected: ConformanceValue) -> String {
        "\(path): \(actual.canonicalText.prefix(600)) instead of \(expected.canonicalText.prefix(600))"
    }

    /// The absolute form of `reference` against the page URL, as the project's resolver computes it.
    private func resolve(_ reference: String) -> String? {
        URL(string: reference, relativeTo: URL(string: pageURL))?.absoluteString
    }

    /// Renames blank nodes (`_:…` ids) after their content, so two graphs that differ only in blank node labels
    /// compare equal. A node's signature is its canonical text with its own id left out and every blank node
    /// reference written as `_:`; nodes are numbered in signature order.
    static func relabellingBlankNodes(_ graph: ConformanceValue) -> ConformanceValue {
        guard let nodes = graph.arrayValue else { return graph }
        var signatures: [(label: String, signature: String)] = []
        for node in nodes {
            guard var members = node.objectValue, let label = members["@id"]?.stringValue, label.hasPrefix("_:") else {
                continue
            }
            members["@id"] = nil
            signatures.append((label, anonymized(.object(members)).canonicalText))
        }
        var renamed: [String: String] = [:]
        for (index, entry) in signatures.sorted(by: { $0.signature < $1.signature }).enumerated() {
            renamed[entry.label] = "_:b\(index + 1)"
        }
        return renaming(graph, renamed)
    }

    private static func anonymized(_ value: ConformanceValue) -> ConformanceValue {
        switch value {
        case .string(let text) where text.hasPrefix("_:"): return .string("_:")
        case .array(let elements): return .array(elements.map(anonymized))
        case .object(let members): return .object(members.mapValues(anonymized))
        default: return value
        }
    }

    private static func renaming(_ value: ConformanceValue, _ renamed: [String: String]) -> ConformanceValue {
        switch value {
        case .string(let text): return .string(renamed[text] ?? text)
        case .array(let elements): return .array(elements.map { renaming($0, renamed) })
        case .object(let members): return .object(members.mapValues { renaming($0, renamed) })
        default: return value
        }
    }
}
