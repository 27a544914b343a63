import FixtureServer
import Foundation
import Items
import Testing

/// One item for the round-trip table.
struct CodecCase: Sendable, CustomTestStringConvertible {
    let name: String
    let item: SearchableItem
    var testDescription: String { name }
}

@Suite("The item codec: jsonText and init(jsonText:) carry every property")
struct ItemCodecTests {
    /// An item with every property, at every depth, set to a value that is not a default (no `nil`, no
    /// empty string or collection, no zero): a property the codec forgets comes back different.
    static let full: SearchableItem = {
        var set = AttributeSet()
        set.title = "Lemon tart"
        set.contentDescription = "A sharp \"lemon\" tart."
        set.keywords = ["tart", "lemon"]
        set.thumbnailURL = "https://example.com/img/tart.jpg"
        set.rating = 4.5
        set.ratingCount = 120
        set.offers = [Offer(price: "12.00", priceCurrency: "EUR", highPrice: "15.50")]
        set.priceRange = "€€"
        set.interactionCount = 9_001
        set.phoneNumbers = ["+44 117 496 0123"]
        set.supportsPhoneCall = true
        set.supportsNavigation = false
        var address = PostalAddress()
        address.streetAddress = "12 Harbour Lane"
        address.addressLocality = "Bristol"
        address.addressRegion = "England"
        address.postalCode = "BS1 4XX"
        address.addressCountry = "GB"
        set.address = address
        set.latitude = 51.4545
        set.longitude = -2.5879
        set.media = [MediaObject(kind: "video", url: "https://example.com/tart.mp4")]
        var recipe = RecipeDetails()
        recipe.name = "Lemon tart"
        recipe.image = "https://example.com/img/tart-square.jpg"
        recipe.totalTime = "PT1H30M"
        recipe.recipeYield = "8 slices"
        recipe.rating = 4.7
        recipe.ratingCount = 37
        set.recipe = recipe
        set.relatedUniqueIdentifier = "recipe-42"
        set.domainIdentifier = "recipes.desserts"
        let link = DeepLink(
            kind: .twitterCard, appStoreID: "1234567890", appName: "Recipes", url: "recipes://tart/42",
            platform: "iphone", appClipBundleID: "com.example.recipes.clip", appID: "ABCDE12345.com.example.recipes")
        return SearchableItem(
            uniqueIdentifier: "https://example.com/recipes/lemon-tart", webpageURL: "https://example.com/tart",
            sources: [.web, .activity, .searchableItem], attributeSet: set, deepLinks: [link],
            searchAction: "https://example.com/search?q={search_term_string}", engagement: 7,
            expirationDate: "2027-01-01T00:00:00Z")
    }()

    /// The paths in `value` that hold a default: `nil`, an empty string or collection, a zero number.
    static func defaultedProperties(of value: Any, at path: String = "item") -> [String] {
        let mirror = Mirror(reflecting: value)
        switch value {
        case let text as String: return text.isEmpty ? [path] : []
        case let number as Int: return number == 0 ? [path] : []
        case let number as Double: return number == 0 ? [path] : []
        default: break
        }
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return [path] }
            return defaultedProperties(of: wrapped, at: path)
        }
        if mirror.displayStyle == .collection, mirror.children.isEmpty { return [path] }
        return mirror.children.enumerated().flatMap { index, child in
            defaultedProperties(of: child.value, at: path + "." + (child.label ?? String(index)))
        }
    }

    /// The paths where `actual` differs from `expected`, property by property, to name what was lost.
    static func differences(_ expected: Any, _ actual: Any, at path: String = "item") -> [String] {
        let left = Mirror(reflecting: expected)
        let right = Mirror(reflecting: actual)
        guard !left.children.isEmpty || !right.children.isEmpty else {
            return String(reflecting: expected) == String(reflecting: actual) ? [] : [path]
        }
        guard left.children.count == right.children.count else { return [path] }
        return zip(left.children, right.children).enumerated().flatMap { index, pair in
            differences(pair.0.value, pair.1.value, at: path + "." + (pair.0.label ?? String(index)))
        }
    }

    @Test("Every property, at any depth, survives the round trip (a property the codec forgets fails here)")
    func everyPropertyRoundTrips() throws {
        // The fixture must set every property: a new one is listed here until it is set above.
        #expect(Self.defaultedProperties(of: Self.full) == [])
        let decoded = try SearchableItem(jsonText: Self.full.jsonText)
        #expect(Self.differences(Self.full, decoded) == [])
        #expect(decoded == Self.full)
        #expect(decoded.jsonText == Self.full.jsonText)
    }

    static let cases: [CodecCase] = {
        var cases = [
            CodecCase(name: "only what every item has", item: SearchableItem(uniqueIdentifier: "", sources: []))
        ]

        var escapes = SearchableItem(uniqueIdentifier: "app:com.example:\u{1}id", sources: [.activity])
        escapes.attributeSet.title = "quote \" backslash \\ slash / tab \t line\nbreak"
        escapes.attributeSet.contentDescription = "ESC \u{1B}[2J DEL \u{7F} CSI \u{9B} NUL \u{0} LS \u{2028}"
        escapes.attributeSet.keywords = ["京都の港", "👩‍👩‍👧", "e\u{301}", ""]
        escapes.searchAction = "https://example.com/?q={q}&x=\u{FFFD}"
        cases.append(CodecCase(name: "strings that need escapes, and text beyond ASCII", item: escapes))

        var numbers = SearchableItem(uniqueIdentifier: "n", sources: [.web], engagement: Int.max)
        numbers.attributeSet.rating = 0
        numbers.attributeSet.ratingCount = Int.max
        numbers.attributeSet.interactionCount = Int.min
        numbers.attributeSet.latitude = -0.000_000_1
        numbers.attributeSet.longitude = 179.999_999_999_9
        var recipe = RecipeDetails()
        recipe.rating = 0.1 + 0.2
        recipe.ratingCount = -1
        numbers.attributeSet.recipe = recipe
        cases.append(CodecCase(name: "numbers at their limits", item: numbers))

        var large = SearchableItem(uniqueIdentifier: "l", sources: [.web], engagement: -3)
        large.attributeSet.rating = 1e15
        large.attributeSet.latitude = 1e300
        large.attributeSet.longitude = -Double.leastNonzeroMagnitude
        cases.append(CodecCase(name: "doubles written with an exponent", item: large))

        var empty = SearchableItem(uniqueIdentifier: "e", sources: [.web])
        empty.attributeSet.keywords = []
        empty.attributeSet.offers = [Offer()]
        empty.attributeSet.phoneNumbers = []
        empty.attributeSet.address = PostalAddress()
        empty.attributeSet.media = []
        empty.attributeSet.recipe = RecipeDetails()
        empty.attributeSet.title = ""
        empty.deepLinks = [DeepLink(kind: .appLinks)]
        cases.append(CodecCase(name: "empty collections and objects stay empty, not absent", item: empty))

        let kinds: [DeepLink.Kind] = [.smartAppBanner, .twitterCard, .appLinks, .universalLink]
        cases.append(
            CodecCase(
                name: "every deep link kind and every source, in order",
                item: SearchableItem(
                    uniqueIdentifier: "k", sources: [.searchableItem, .web, .activity, .web],
                    deepLinks: kinds.map { DeepLink(kind: $0, url: "app://\($0.rawValue)") })))
        return cases
    }()

    @Test("An item reads back equal, and its text is written again byte for byte", arguments: cases)
    func roundTrip(_ codecCase: CodecCase) throws {
        let text = codecCase.item.jsonText
        let decoded = try SearchableItem(jsonText: text)
        #expect(Self.differences(codecCase.item, decoded) == [])
        #expect(decoded == codecCase.item)
        #expect(decoded.jsonText == text)
    }

    /// Every HTML page of the fixtures: what the crawler stores for real pages, hostile ones included.
    static let fixturePages: [String] = {
        let root = Fixtures.file("")
        var pages: [String] = []
        for folder in ["pages", "sites"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".html") { pages.append(folder + "/" + path) }
            }
        }
        return pages.sorted()
    }()

    @Test("The fixtures hold pages")
    func fixturePagesExist() {
        #expect(Self.fixturePages.count >= 40)
    }

    @Test("A crawled page's item reads back from the text the crawler stores", arguments: fixturePages)
    func fixturePage(_ path: String) throws {
        let item = PageExtraction(bytes: try Fixtures.bytes(path), url: "https://example.com/\(path)").item
        let decoded = try SearchableItem(jsonText: item.jsonText)
        #expect(decoded == item)
        #expect(decoded.jsonText == item.jsonText)
    }

    @Test("A fuzz input's item reads back from its text", arguments: FuzzRegressionTests.inputs)
    func fuzzInput(_ name: String) throws {
        let input = FuzzCase(try Fixtures.bytes("fuzz/\(name)"))
        let item = PageExtraction(bytes: input.body, url: input.url, headers: input.headers).item
        let decoded = try SearchableItem(jsonText: item.jsonText)
        #expect(decoded == item)
        #expect(decoded.jsonText == item.jsonText)
    }

    @Test("Text in SPEC §6's shape reads, and is written again exactly as stored")
    func specShape() throws {
        let text = """
            {"uniqueIdentifier":"https://example.com/recipes/lemon-tart","webpageURL":"https://example.com/recipes/lemon-tart",\
            "sources":["web","activity"],"attributeSet":{"title":"Lemon tart","contentDescription":"A sharp lemon tart.",\
            "keywords":["tart","lemon"],"thumbnailURL":"https://example.com/img/tart.jpg","rating":4.5,"ratingCount":120,\
            "offers":[{"price":"12.00","priceCurrency":"EUR"}],"priceRange":"€€","interactionCount":0,\
            "phoneNumbers":["+1 555 0100"],"supportsPhoneCall":true,"supportsNavigation":true,\
            "address":{"streetAddress":"1 Main St","addressLocality":"Springfield","addressRegion":"IL",\
            "postalCode":"62701","addressCountry":"US"},"latitude":0,"longitude":0,\
            "relatedUniqueIdentifier":"recipe-42","domainIdentifier":"recipes.desserts"},\
            "deepLinks":[{"kind":"smartAppBanner","appStoreID":"123","appName":"Recipes","url":"https://example.com/r"}],\
            "searchAction":"https://example.com/search?q={search_term_string}","engagement":3,\
            "expirationDate":"2027-01-01T00:00:00Z"}
            """
        let item = try SearchableItem(jsonText: text)
        #expect(item.attributeSet.offers == [Offer(price: "12.00", priceCurrency: "EUR")])
        #expect(item.attributeSet.interactionCount == 0 && item.attributeSet.latitude == 0)
        #expect(item.deepLinks.first?.appName == "Recipes")
        #expect(item.jsonText == text)
    }

    @Test("Keys no property reads are ignored at every level (text from a later version still reads)")
    func unknownKeys() throws {
        let text = """
            {"uniqueIdentifier":"u","future":{"nested":[1,{"deep":null}]},"sources":["web"],
             "attributeSet":{"title":"T","colour":"red","address":{"postalCode":"1","floor":3},
               "offers":[{"price":"1","tax":true}],"media":[{"kind":"audio","url":"https://e.com/a","length":3}],
               "recipe":{"name":"R","cuisine":"x"}},
             "deepLinks":[{"kind":"appLinks","priority":1}],"engagement":1,"boost":2.5}
            """
        let item = try SearchableItem(jsonText: text)
        var expected = SearchableItem(uniqueIdentifier: "u", sources: [.web], engagement: 1)
        expected.attributeSet.title = "T"
        var address = PostalAddress()
        address.postalCode = "1"
        expected.attributeSet.address = address
        expected.attributeSet.offers = [Offer(price: "1")]
        expected.attributeSet.media = [MediaObject(kind: "audio", url: "https://e.com/a")]
        var recipe = RecipeDetails()
        recipe.name = "R"
        expected.attributeSet.recipe = recipe
        expected.deepLinks = [DeepLink(kind: .appLinks)]
        #expect(item == expected)
    }

    @Test("A whole number written with a fraction or an exponent reads as a count")
    func wholeNumbers() throws {
        let text =
            #"{"uniqueIdentifier":"u","sources":[],"attributeSet":{"ratingCount":12.0},"deepLinks":[],"engagement":3e1}"#
        let item = try SearchableItem(jsonText: text)
        #expect(item.attributeSet.ratingCount == 12)
        #expect(item.engagement == 30)
    }
}
