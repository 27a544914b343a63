import Markup
package import StrictJSON

/// What a search result for an item would show: the would-be card of `searchlight validate`.
package struct PreviewCard: Sendable, Hashable {
    /// The title line.
    package var title: String?
    /// The description, cut to what a result shows.
    package var description: String?
    /// The thumbnail.
    package var thumbnailURL: String?
    /// The rating on 0–5 and how many ratings, if any.
    package var rating: Double?
    package var ratingCount: Int?
    /// A price line (`"12.00 EUR"`, `"5–9.50 USD"`, or a price range such as `"€€"`).
    package var price: String?
    /// The actions the result offers: `open in app`, `call`, `directions`, `play`, `search`.
    package var actions: [String]
    /// The app a deep link opens (`"App Store 123456789"`), if any.
    package var app: String?
    /// The URL the result opens.
    package var url: String?

    /// The longest description a card shows.
    package static let descriptionLength = 160

    /// Builds the card for `item`.
    package init(item: SearchableItem) {
        let attributes = item.attributeSet
        title = attributes.title
        description = attributes.contentDescription.flatMap {
            WebItemBuilder.snippet(of: $0, length: Self.descriptionLength)
        }
        thumbnailURL = attributes.thumbnailURL
        rating = attributes.rating
        ratingCount = attributes.ratingCount
        if let offer = attributes.offers?.first, let low = offer.price {
            let amount = offer.highPrice.map { "\(low)–\($0)" } ?? low
            price = [amount, offer.priceCurrency].compactMap { $0 }.joined(separator: " ")
        } else {
            price = attributes.priceRange
        }
        var actions: [String] = []
        let appLink = item.deepLinks.first { $0.isApplePlatform }
        if appLink != nil { actions.append("open in app") }
        if attributes.supportsPhoneCall == true { actions.append("call") }
        if attributes.supportsNavigation == true { actions.append("directions") }
        if attributes.media?.isEmpty == false { actions.append("play") }
        if item.searchAction != nil { actions.append("search") }
        self.actions = actions
        app = appLink.flatMap { link in
            link.appStoreID.map { "App Store \($0)" } ?? link.appName ?? link.url
        }
        url = item.webpageURL
    }

    /// The rating as five stars with halves, e.g. `"★★★★½"`; `nil` without a rating.
    package var stars: String? {
        guard let rating else { return nil }
        let halves = Int((rating * 2).rounded())
        return String(repeating: "★", count: halves / 2) + (halves % 2 == 1 ? "½" : "")
            + String(repeating: "☆", count: (10 - halves) / 2)
    }

    /// The card as JSON.
    package var jsonValue: JSONValue {
        var members: [JSONMember] = []
        members.appendIfPresent("title", title)
        members.appendIfPresent("description", description)
        members.appendIfPresent("thumbnailURL", thumbnailURL)
        if let rating { members.append(JSONMember("rating", .number(rating))) }
        if let ratingCount { members.append(JSONMember("ratingCount", .number(ratingCount))) }
        members.appendIfPresent("price", price)
        members.append(JSONMember("actions", .array(actions.map(JSONValue.string))))
        members.appendIfPresent("app", app)
        members.appendIfPresent("url", url)
        return .object(members)
    }
}
