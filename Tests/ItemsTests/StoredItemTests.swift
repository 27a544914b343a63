import Items
import Testing

@Suite("The stored form of a published item: the columns' text left out, put back byte for byte")
struct StoredItemTests {
    /// The full item with its text attributes changed by `change`.
    static func item(_ change: (inout AttributeSet) -> Void) -> SearchableItem {
        var item = ItemCodecTests.full
        change(&item.attributeSet)
        return item
    }

    /// An attribute set with only these text attributes.
    static func attributes(title: String, description: String? = nil, keywords: [String]? = nil) -> AttributeSet {
        var set = AttributeSet()
        set.title = title
        set.contentDescription = description
        set.keywords = keywords
        return set
    }

    static let cases: [CodecCase] = [
        CodecCase(name: "every property", item: ItemCodecTests.full),
        CodecCase(
            name: "title only",
            item: SearchableItem(uniqueIdentifier: "u", sources: [.web], attributeSet: attributes(title: "T"))),
        CodecCase(name: "no description", item: item { $0.contentDescription = nil }),
        CodecCase(name: "empty description", item: item { $0.contentDescription = "" }),
        CodecCase(name: "no keywords", item: item { $0.keywords = nil }),
        CodecCase(name: "an empty keyword list", item: item { $0.keywords = [] }),
        CodecCase(name: "one empty keyword", item: item { $0.keywords = [""] }),
        CodecCase(name: "a keyword with a newline", item: item { $0.keywords = ["a\nb", "c"] }),
        CodecCase(name: "keywords only after the title", item: item { $0.contentDescription = nil }),
        CodecCase(
            name: "markers inside strings",
            item: SearchableItem(
                uniqueIdentifier: #"u,"attributeSet":{"title":"x"#, webpageURL: #"\",\"attributeSet\":{"#,
                sources: [.web],
                attributeSet: attributes(title: #""title":"#, description: "}\\", keywords: ["\"", "é"]))),
    ]

    /// The columns the publisher writes for `item`.
    static func columns(_ item: SearchableItem) -> (title: String, description: String?, keywords: String?) {
        (
            item.attributeSet.title ?? "", item.attributeSet.contentDescription,
            item.attributeSet.keywords?.joined(separator: "\n")
        )
    }

    @Test("puts the item's JSON back together byte for byte", arguments: cases)
    func roundTrip(_ test: CodecCase) throws {
        let stored = StoredItem.storedJSON(test.item)
        let (title, description, keywords) = Self.columns(test.item)
        let published = StoredItem.publishedJSON(
            stored: stored, title: title, description: description, keywords: keywords)
        #expect(published == test.item.jsonText)
        #expect(try SearchableItem(jsonText: published) == test.item)
    }

    @Test("leaves the title and the description out of the stored text")
    func leavesColumnsOut() {
        let stored = StoredItem.storedJSON(ItemCodecTests.full)
        #expect(!stored.contains(#""title""#))
        #expect(!stored.contains("sharp"))
        #expect(!stored.contains("\"keywords\""))
        #expect(stored.contains("\"thumbnailURL\""))
        #expect(stored.utf8.count < ItemCodecTests.full.jsonText.utf8.count)
    }

    @Test("reads text stored in the full form by an earlier version as it is")
    func fullFormReadsAsItIs() {
        let full = ItemCodecTests.full.jsonText
        #expect(StoredItem.publishedJSON(stored: full, title: "Other", description: "x", keywords: "y") == full)
    }

    @Test("gives back text that is not in the stored form unchanged")
    func foreignTextUnchanged() {
        for text in ["", "{}", "not json", #"{"attributeSet":{}}"#] {
            #expect(StoredItem.publishedJSON(stored: text, title: "T", description: nil, keywords: nil) == text)
        }
    }
}
