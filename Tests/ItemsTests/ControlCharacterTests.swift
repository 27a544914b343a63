import Foundation
import Items
import Testing

@Suite("Items hold no control characters")
struct ControlCharacterTests {
    /// An item with every property set, each string carrying an escape sequence, a bell and a C1 CSI.
    static let hostile = "x\\u001b[2J\\u0007\\u009b"
    static let json = """
        {"uniqueIdentifier":"\(hostile)","webpageURL":"\(hostile)","sources":["web"],
         "attributeSet":{"title":"\(hostile)","contentDescription":"\(hostile)","keywords":["\(hostile)"],
           "thumbnailURL":"\(hostile)","rating":4,"ratingCount":1,
           "offers":[{"price":"\(hostile)","priceCurrency":"\(hostile)","highPrice":"\(hostile)"}],
           "priceRange":"\(hostile)","interactionCount":1,"phoneNumbers":["\(hostile)"],"supportsPhoneCall":true,
           "supportsNavigation":true,
           "address":{"streetAddress":"\(hostile)","addressLocality":"\(hostile)","addressRegion":"\(hostile)",
             "postalCode":"\(hostile)","addressCountry":"\(hostile)"},
           "latitude":1,"longitude":1,"media":[{"kind":"\(hostile)","url":"\(hostile)"}],
           "recipe":{"name":"\(hostile)","image":"\(hostile)","totalTime":"\(hostile)","recipeYield":"\(hostile)",
             "rating":4,"ratingCount":1},
           "relatedUniqueIdentifier":"\(hostile)","domainIdentifier":"\(hostile)"},
         "deepLinks":[{"kind":"smartAppBanner","appStoreID":"\(hostile)","appName":"\(hostile)","url":"\(hostile)",
           "platform":"\(hostile)","appClipBundleID":"\(hostile)","appID":"\(hostile)"}],
         "searchAction":"\(hostile)","engagement":1,"expirationDate":"\(hostile)"}
        """

    /// The paths of optional properties left `nil` anywhere in `value`.
    static func unsetProperties(of value: Any, at path: String = "item") -> [String] {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return [path] }
            return unsetProperties(of: wrapped, at: path)
        }
        return mirror.children.enumerated().flatMap { index, child in
            unsetProperties(of: child.value, at: path + "." + (child.label ?? String(index)))
        }
    }

    @Test("Every string property, at any depth, is cleaned (a property added without cleaning fails here)")
    func everyStringIsCleaned() throws {
        let item = try SearchableItem(jsonText: Self.json)
        // The fixture must set every property: a new one makes this list non-empty until it is added above.
        #expect(Self.unsetProperties(of: item) == [])
        let cleaned = item.withoutControlCharacters().jsonText
        #expect(!cleaned.contains("\\u001b") && !cleaned.contains("\\u0007"), "\(cleaned)")
        #expect(!cleaned.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(cleaned)")
        #expect(cleaned.contains("x[2J"))
    }

    @Test("A crawled page's item keeps none of the page's control characters")
    func pageItem() {
        let page = "<title>Clear\u{1B}[2J screen</title><meta name=description content='bell\u{07}\u{9B}6n'>"
        let extraction = PageExtraction(bytes: Array(page.utf8), url: "https://example.com/")
        #expect(extraction.item.attributeSet.title == "Clear[2J screen")
        #expect(extraction.item.attributeSet.contentDescription == "bell6n")
        #expect(PageExtraction.item(bytes: Array(page.utf8), url: "https://example.com/").item == extraction.item)
    }
}
