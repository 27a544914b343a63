import Items
import Testing

@Suite("A stored item's URLs checked again: withoutRefusedURLs")
struct StoredURLTests {
    /// An item whose every URL field says `url`, with a second medium that is always safe.
    static func item(_ url: String) -> SearchableItem {
        var item = SearchableItem(uniqueIdentifier: url, webpageURL: url, sources: [.web], searchAction: url)
        item.attributeSet.title = "Title"
        item.attributeSet.thumbnailURL = url
        item.attributeSet.media = [
            MediaObject(kind: "video", url: url), MediaObject(kind: "audio", url: "https://example.com/a.mp3"),
        ]
        var recipe = RecipeDetails()
        recipe.name = "Recipe"
        recipe.image = url
        item.attributeSet.recipe = recipe
        item.deepLinks = [DeepLink(kind: .appLinks, appStoreID: "123", url: url, platform: "ios")]
        return item
    }

    @Test(
        "A scheme no field publishes is left out of every URL field; the rest of the item stays",
        arguments: [
            "javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "data:text/html,x",
            "file:///etc/passwd",
        ])
    func neverPublished(_ url: String) {
        let cleaned = Self.item(url).withoutRefusedURLs()
        #expect(cleaned.attributeSet.thumbnailURL == nil)
        #expect(cleaned.attributeSet.media == [MediaObject(kind: "audio", url: "https://example.com/a.mp3")])
        #expect(cleaned.attributeSet.recipe?.image == nil && cleaned.attributeSet.recipe?.name == "Recipe")
        #expect(cleaned.deepLinks == [DeepLink(kind: .appLinks, appStoreID: "123", platform: "ios")])
        #expect(cleaned.searchAction == nil)
        // The identity is not the markup's to refuse.
        #expect(cleaned.uniqueIdentifier == url && cleaned.webpageURL == url)
        #expect(cleaned.attributeSet.title == "Title")
    }

    @Test("An app's own scheme is a deep link but no web URL")
    func appScheme() {
        let cleaned = Self.item("recipes://tart/42").withoutRefusedURLs()
        #expect(cleaned.deepLinks.first?.url == "recipes://tart/42")
        #expect(cleaned.attributeSet.thumbnailURL == nil && cleaned.searchAction == nil)
        #expect(cleaned.attributeSet.recipe?.image == nil)
    }

    @Test("Accepted URLs are kept as written, and media refused to the last one leave no empty list")
    func keptAsWritten() {
        let url = "HTTPS://Example.com/a b?q={search_term_string}"
        #expect(Self.item(url).withoutRefusedURLs() == Self.item(url))
        var item = Self.item("vbscript:x")
        item.attributeSet.media = [MediaObject(kind: "video", url: "vbscript:x")]
        #expect(item.withoutRefusedURLs().attributeSet.media == nil)
    }
}
