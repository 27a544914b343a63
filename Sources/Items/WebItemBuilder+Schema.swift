import Markup
internal import StrictJSON

extension WebItemBuilder {
    /// A count read from a JSON number or numeric string, truncated toward zero; `nil` for NaN,
    /// infinities and values outside `Int` (`"ratingCount": 1e30` must not trap).
    static func count(_ value: Double) -> Int? {
        Int(exactly: value.rounded(.towardZero))
    }

    /// `Offer` and `AggregateOffer` prices, and `priceRange`.
    func applyCommerce(to attributes: inout AttributeSet) {
        var offers: [Offer] = []
        for entity in graph.entities {
            let types = SchemaGraph.types(of: entity)
            guard types.contains("Offer") || types.contains("AggregateOffer") else { continue }
            let currency = entity["priceCurrency"]?.listValue.first?.stringValue
            if types.contains("AggregateOffer") {
                let low = (entity["lowPrice"] ?? entity["price"])?.listValue.first?.stringValue
                let high = entity["highPrice"]?.listValue.first?.stringValue
                if low != nil || high != nil {
                    offers.append(Offer(price: low, priceCurrency: currency, highPrice: high))
                }
            } else if let price = entity["price"]?.listValue.first?.stringValue {
                offers.append(Offer(price: price, priceCurrency: currency))
            }
        }
        if !offers.isEmpty { attributes.offers = offers }
        attributes.priceRange = graph.entities.lazy.compactMap { $0["priceRange"]?.listValue.first?.stringValue }.first
    }

    /// `telephone` of an organization or business (the "call" action); `PostalAddress` and
    /// `geo` (the "directions" action).
    func applyPlace(to attributes: inout AttributeSet) {
        var phones: [String] = []
        for entity in graph.entities where !SchemaGraph.types(of: entity).contains("Person") {
            for phone in entity["telephone"]?.listValue.compactMap(\.stringValue) ?? [] where !phone.isEmpty {
                if !phones.contains(phone) { phones.append(phone) }
            }
        }
        if !phones.isEmpty {
            attributes.phoneNumbers = phones
            attributes.supportsPhoneCall = true
        }
        for entity in graph.entities {
            let candidates = SchemaGraph.types(of: entity).contains("PostalAddress") ? [entity] : []
            for address in candidates {
                var postal = PostalAddress()
                postal.streetAddress = address["streetAddress"]?.listValue.first?.stringValue
                postal.addressLocality = address["addressLocality"]?.listValue.first?.stringValue
                postal.addressRegion = address["addressRegion"]?.listValue.first?.stringValue
                postal.postalCode = address["postalCode"]?.listValue.first?.stringValue
                postal.addressCountry = (address["addressCountry"]?.listValue.first).flatMap {
                    $0.stringValue ?? $0["name"]?.stringValue
                }
                if !postal.isEmpty && attributes.address == nil { attributes.address = postal }
            }
            if attributes.latitude == nil, let geo = entity["geo"]?.listValue.first,
                let latitude = geo["latitude"]?.doubleValue, let longitude = geo["longitude"]?.doubleValue,
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            {
                attributes.latitude = latitude
                attributes.longitude = longitude
            }
        }
        if attributes.address != nil || attributes.latitude != nil { attributes.supportsNavigation = true }
    }

    /// `interactionCount` (a number, or text such as `"UserLikes:120"`), else the sum of
    /// `interactionStatistic` counters.
    var interactionCount: Int? {
        for entity in graph.entities {
            if let text = entity["interactionCount"]?.listValue.first?.stringValue,
                let digits = text.split(whereSeparator: { !$0.isNumber }).last, let count = Int(digits)
            {
                return count
            }
            let counters = entity["interactionStatistic"]?.listValue ?? []
            let counts = counters.compactMap { $0["userInteractionCount"]?.doubleValue.flatMap(Self.count) }
            if !counts.isEmpty {
                // Saturating: counters near Int.max must not overflow the sum.
                return counts.reduce(0) { sum, count in
                    let (total, overflow) = sum.addingReportingOverflow(count)
                    return overflow ? (count < 0 ? Int.min : Int.max) : total
                }
            }
        }
        return nil
    }

    /// The first schema.org `Recipe`.
    func recipe(findings: inout [MappingFinding]) -> RecipeDetails? {
        guard let entity = graph.entities(ofType: ["Recipe"]).first else { return nil }
        var recipe = RecipeDetails()
        recipe.name = entity["name"]?.listValue.first?.stringValue
        recipe.image = image(entity["image"], from: "schema.org image", findings: &findings)
        recipe.totalTime = entity["totalTime"]?.listValue.first?.stringValue
        recipe.recipeYield = entity["recipeYield"]?.listValue.first?.stringValue
        if let rating = Self.rating(in: [entity], findings: &findings) {
            recipe.rating = rating.value
            recipe.ratingCount = rating.count
        }
        return recipe
    }
}
