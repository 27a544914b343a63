import PlainText

extension SearchableItem {
    /// The item with control characters removed from every string it holds (``PlainText/cleaned(_:)``):
    /// what a page's markup puts into a title, a description, a keyword or a name is stored and shown
    /// without escape sequences.
    ///
    /// Every string property of the item and of the values it holds is listed here; the tests fill each
    /// one from JSON and fail on a property that is left out, so a new field cannot be forgotten.
    package func withoutControlCharacters() -> SearchableItem {
        var item = self
        item.uniqueIdentifier = PlainText.cleaned(uniqueIdentifier)
        item.webpageURL = webpageURL.map(PlainText.cleaned)
        item.attributeSet = attributeSet.withoutControlCharacters()
        item.deepLinks = deepLinks.map { $0.withoutControlCharacters() }
        item.searchAction = searchAction.map(PlainText.cleaned)
        item.expirationDate = expirationDate.map(PlainText.cleaned)
        return item
    }
}

extension AttributeSet {
    func withoutControlCharacters() -> AttributeSet {
        let clean = PlainText.cleaned
        var set = self
        set.title = title.map(clean)
        set.contentDescription = contentDescription.map(clean)
        set.keywords = keywords.map { $0.map(clean) }
        set.thumbnailURL = thumbnailURL.map(clean)
        set.offers = offers.map { offers in
            offers.map {
                Offer(
                    price: $0.price.map(clean), priceCurrency: $0.priceCurrency.map(clean),
                    highPrice: $0.highPrice.map(clean))
            }
        }
        set.priceRange = priceRange.map(clean)
        set.phoneNumbers = phoneNumbers.map { $0.map(clean) }
        set.address = address.map { address in
            var cleaned = address
            cleaned.streetAddress = address.streetAddress.map(clean)
            cleaned.addressLocality = address.addressLocality.map(clean)
            cleaned.addressRegion = address.addressRegion.map(clean)
            cleaned.postalCode = address.postalCode.map(clean)
            cleaned.addressCountry = address.addressCountry.map(clean)
            return cleaned
        }
        set.media = media.map { $0.map { MediaObject(kind: clean($0.kind), url: clean($0.url)) } }
        set.recipe = recipe.map { recipe in
            var cleaned = recipe
            cleaned.name = recipe.name.map(clean)
            cleaned.image = recipe.image.map(clean)
            cleaned.totalTime = recipe.totalTime.map(clean)
            cleaned.recipeYield = recipe.recipeYield.map(clean)
            return cleaned
        }
        set.relatedUniqueIdentifier = relatedUniqueIdentifier.map(clean)
        set.domainIdentifier = domainIdentifier.map(clean)
        return set
    }
}

extension DeepLink {
    func withoutControlCharacters() -> DeepLink {
        let clean = PlainText.cleaned
        return DeepLink(
            kind: kind, appStoreID: appStoreID.map(clean), appName: appName.map(clean), url: url.map(clean),
            platform: platform.map(clean), appClipBundleID: appClipBundleID.map(clean), appID: appID.map(clean))
    }
}
