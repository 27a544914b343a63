import Items
import Testing

@Suite("Mapping: schema.org fields")
struct SchemaFieldTests {
    static func item(_ json: String) -> AttributeSet {
        extraction(page(head: jsonLD(json))).item.attributeSet
    }

    @Test("reviewCount stands in for ratingCount")
    func reviewCount() {
        let attributes = Self.item(
            #"{"@context":"http://schema.org/","@type":"AggregateRating","ratingValue":3,"reviewCount":7}"#)
        #expect(attributes.rating == 3)
        #expect(attributes.ratingCount == 7)
    }

    @Test("Offers, aggregate offers and price ranges")
    func offers() {
        let attributes = Self.item(
            #"""
            [{"@context":"https://schema.org","@type":"Product","offers":{"@type":"Offer","price":"12.00","priceCurrency":"EUR"}},
             {"@context":"https://schema.org","@type":"Product","offers":{"@type":"AggregateOffer","lowPrice":"5","highPrice":"9.50","priceCurrency":"USD"}},
             {"@context":"https://schema.org","@type":"Restaurant","priceRange":"€€"}]
            """#)
        #expect(
            attributes.offers == [
                Offer(price: "12.00", priceCurrency: "EUR"), Offer(price: "5", priceCurrency: "USD", highPrice: "9.50"),
            ])
        #expect(attributes.priceRange == "€€")
    }

    @Test("interactionCount as text or InteractionCounter")
    func interaction() {
        #expect(
            Self.item(#"{"@context":"https://schema.org","@type":"VideoObject","interactionCount":"UserPlays:1200"}"#)
                .interactionCount == 1200)
        let counters =
            #"{"@context":"https://schema.org","@type":"Article","interactionStatistic":[{"@type":"InteractionCounter","userInteractionCount":10},{"@type":"InteractionCounter","userInteractionCount":"5"}]}"#
        #expect(Self.item(counters).interactionCount == 15)
    }

    @Test("A business telephone gives the call action; a person's does not")
    func telephone() {
        let business = Self.item(
            #"{"@context":"https://schema.org","@type":"LocalBusiness","telephone":"+1-555-0100"}"#)
        #expect(business.phoneNumbers == ["+1-555-0100"])
        #expect(business.supportsPhoneCall == true)
        let person = Self.item(#"{"@context":"https://schema.org","@type":"Person","telephone":"+1-555-0199"}"#)
        #expect(person.phoneNumbers == nil)
        #expect(person.supportsPhoneCall == nil)
    }

    @Test("PostalAddress and geo give the directions action")
    func place() throws {
        let attributes = Self.item(
            #"""
            {"@context":"https://schema.org","@type":"Restaurant","address":{"@type":"PostalAddress","streetAddress":"1 Main St",
             "addressLocality":"Springfield","addressRegion":"IL","postalCode":"62701","addressCountry":{"@type":"Country","name":"US"}},
             "geo":{"@type":"GeoCoordinates","latitude":"39.78","longitude":-89.65}}
            """#)
        let address = try #require(attributes.address)
        #expect(address.streetAddress == "1 Main St")
        #expect(address.addressCountry == "US")
        #expect(attributes.latitude == 39.78)
        #expect(attributes.longitude == -89.65)
        #expect(attributes.supportsNavigation == true)
        #expect(
            Self.item(#"{"@context":"https://schema.org","@type":"Thing","geo":{"latitude":500,"longitude":0}}"#)
                .supportsNavigation == nil)
    }

    @Test("WebSite SearchAction target, as a string or an EntryPoint")
    func searchAction() {
        let string =
            #"{"@context":"https://schema.org","@type":"WebSite","potentialAction":{"@type":"SearchAction","target":"https://example.com/search?q={q}","query-input":"required name=q"}}"#
        #expect(extraction(page(head: jsonLD(string))).item.searchAction == "https://example.com/search?q={q}")
        let entry =
            #"{"@context":"https://schema.org","@type":"WebSite","potentialAction":[{"@type":"SearchAction","target":{"@type":"EntryPoint","urlTemplate":"https://example.com/s?k={k}"}}]}"#
        #expect(extraction(page(head: jsonLD(entry))).item.searchAction == "https://example.com/s?k={k}")
    }

    @Test("og:audio, og:video and media objects give the play action")
    func media() {
        let html = page(
            head: """
                <meta property="og:video" content="/v.mp4"><meta property="og:audio" content="https://x.org/a.mp3">
                \(jsonLD(#"{"@context":"https://schema.org","@type":"VideoObject","contentUrl":"https://x.org/v2.mp4"}"#))
                """)
        let media = extraction(html).item.attributeSet.media ?? []
        #expect(media.map(\.url) == ["https://x.org/a.mp3", "https://example.com/v.mp4", "https://x.org/v2.mp4"])
        #expect(media.map(\.kind) == ["audio", "video", "video"])
    }

    @Test("Recipe details")
    func recipe() throws {
        let attributes = Self.item(
            #"""
            {"@context":"https://schema.org","@type":"Recipe","name":"Lemon tart","image":"/t.jpg","totalTime":"PT1H30M",
             "recipeYield":"8 servings","aggregateRating":{"@type":"AggregateRating","ratingValue":"4.8","ratingCount":"120"}}
            """#)
        let recipe = try #require(attributes.recipe)
        #expect(recipe.name == "Lemon tart")
        #expect(recipe.image == "https://example.com/t.jpg")
        #expect(recipe.totalTime == "PT1H30M")
        #expect(recipe.recipeYield == "8 servings")
        #expect(recipe.rating == 4.8)
        #expect(recipe.ratingCount == 120)
    }

    @Test("Microdata and RDFa feed the same mapping as JSON-LD")
    func otherSyntaxes() {
        let microdata = page(
            body: """
                <div itemscope itemtype="https://schema.org/Product"><span itemprop="name">P</span>
                <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
                <meta itemprop="ratingValue" content="9"><meta itemprop="bestRating" content="10"><span itemprop="reviewCount">31</span></div></div>
                """)
        #expect(extraction(microdata).item.attributeSet.rating == 4.5)
        #expect(extraction(microdata).item.attributeSet.ratingCount == 31)
        let rdfa = page(
            body: """
                <div vocab="https://schema.org/" typeof="LocalBusiness"><span property="name">Shop</span>
                <span property="telephone">+44 20 7946 0000</span></div>
                """)
        #expect(extraction(rdfa).item.attributeSet.phoneNumbers == ["+44 20 7946 0000"])
    }
}
