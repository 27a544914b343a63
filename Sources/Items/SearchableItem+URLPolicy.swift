extension SearchableItem {
    /// The item without the URLs ``URLPolicy`` refuses, each field under the policy the markup mapping
    /// applies to it: the thumbnail, media URLs, the recipe image and the search action are web URLs
    /// (http and https only); a deep link's `url` is what an app opens (no script or local scheme).
    /// A value that passes is kept as written; a refused medium is left out with its URL, and a deep
    /// link keeps the rest of what it says (its App Store ID still names the app).
    ///
    /// Publishing applies this to a page's stored item, so a page stored before a rule existed
    /// publishes nothing that rule refuses. The identity (`uniqueIdentifier`, `webpageURL`) is not a
    /// field of the page's markup and is left as it is.
    package func withoutRefusedURLs() -> SearchableItem {
        var item = self
        item.attributeSet = attributeSet.withoutRefusedURLs()
        item.deepLinks = deepLinks.map { link in
            var link = link
            link.url = link.url.flatMap { Self.kept($0, .deepLink) }
            return link
        }
        item.searchAction = searchAction.flatMap { Self.kept($0, .web) }
        return item
    }

    /// `url` when `policy` accepts it as an absolute URL, as written.
    static func kept(_ url: String, _ policy: URLPolicy) -> String? {
        policy.accepted(url) == nil ? nil : url
    }
}

extension AttributeSet {
    func withoutRefusedURLs() -> AttributeSet {
        var set = self
        set.thumbnailURL = thumbnailURL.flatMap { SearchableItem.kept($0, .web) }
        let media = media?.filter { SearchableItem.kept($0.url, .web) != nil }
        set.media = media?.isEmpty == true ? nil : media
        set.recipe?.image = recipe?.image.flatMap { SearchableItem.kept($0, .web) }
        return set
    }
}
