/// Where a value sits in the file, written the way a reader would look it up:
/// `applinks.details[0].components[2]["/"]`.
struct JSONPath: Sendable, CustomStringConvertible {
    private(set) var description: String

    /// The document root.
    static let root = JSONPath(description: "")

    /// The member `key` of the object at this path; keys that are not plain identifiers are quoted.
    func member(_ key: String) -> JSONPath {
        let isIdentifier =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
        if isIdentifier {
            return JSONPath(description: description.isEmpty ? key : description + "." + key)
        }
        var escaped = ""
        for character in key {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return JSONPath(description: description + "[\"" + escaped + "\"]")
    }

    /// The element `index` of the array at this path.
    func element(_ index: Int) -> JSONPath {
        JSONPath(description: description + "[\(index)]")
    }
}
