/// Text made safe for HTML: the one escaper of the product's pages (the dedup report, the preview card of
/// `validate --html`, the search page of `serve`).
package enum HTMLText {
    /// `text` escaped for element content and for double- or single-quoted attribute values.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        append(text, to: &result)
        return result
    }

    /// Appends `text` to `output`, escaped as ``escape(_:)`` escapes it.
    package static func append(_ text: String, to output: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }
}
