internal import StrictJSON

/// The form a published item is stored in (`public_item.item_json`, the same on both engines): its
/// JSON text (``SearchableItem/jsonText``) without the attributes the row also holds in columns of its
/// own, which the full-text indexes read — `title`, `contentDescription`, and `keywords` (joined with
/// newlines) — so the store holds each of them once. A million published items store about 250 MB
/// less (`Docs/benchmarks.md`, "Index").
///
/// ``storedJSON(_:)`` writes the form and ``publishedJSON(stored:title:description:keywords:)`` puts
/// the item's JSON back together from it and the columns, byte for byte the item's ``jsonText``: the
/// three attributes are the first members of the attribute set (SPEC §6's order), so they go back at
/// its start. Text stored in the full form by an earlier version (its attribute set begins with
/// `title`, which the stored form never holds) reads back as it is.
package enum StoredItem {
    /// `item` as stored: its JSON text without `title` and `contentDescription`, and without `keywords`
    /// when the newline-joined column gives the list back exactly (not for an empty list or a keyword
    /// holding a newline, which stay in the text).
    /// - Precondition: `item` has a title (a published item always has one).
    package static func storedJSON(_ item: SearchableItem) -> String {
        var stored = item
        stored.attributeSet.title = nil
        stored.attributeSet.contentDescription = nil
        if let keywords = item.attributeSet.keywords, columnRestores(keywords) { stored.attributeSet.keywords = nil }
        return stored.jsonText
    }

    /// The published item's JSON text (SPEC §6) from its stored form `stored` and the row's columns:
    /// `title`, `description` (`NULL` when the item has none) and `keywords` (newline-joined, `NULL` when
    /// the item has none). Text that is not in the stored form (the full form, or text this version
    /// did not write) comes back unchanged.
    package static func publishedJSON(stored: String, title: String, description: String?, keywords: String?)
        -> String
    {
        var utf8 = Array(stored.utf8)
        // `,"` never occurs inside a serialized string (every `"` in one is escaped), so the first
        // occurrence of the marker is the item's own attribute set.
        guard let marker = utf8.firstRange(of: attributeSetMarker) else { return stored }
        let rest = utf8[marker.upperBound...]
        if rest.starts(with: titleKey) { return stored }
        var members = [JSONMember("title", .string(title))]
        if let description { members.append(JSONMember("contentDescription", .string(description))) }
        if let keywords, !rest.starts(with: keywordsKey) {
            let list = keywords.split(separator: "\n", omittingEmptySubsequences: false)
            members.append(JSONMember("keywords", .array(list.map { .string(String($0)) })))
        }
        var inserted = Array(JSONValue.object(members).serialized().utf8.dropFirst().dropLast())
        if rest.first != UInt8(ascii: "}") { inserted.append(UInt8(ascii: ",")) }
        utf8.insert(contentsOf: inserted, at: marker.upperBound)
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Whether the keywords column (`keywords` joined with newlines) gives `keywords` back exactly.
    static func columnRestores(_ keywords: [String]) -> Bool {
        !keywords.isEmpty && !keywords.contains { $0.contains("\n") }
    }

    private static let attributeSetMarker = Array(#","attributeSet":{"#.utf8)
    private static let titleKey = Array(#""title":"#.utf8)
    private static let keywordsKey = Array(#""keywords":"#.utf8)
}
