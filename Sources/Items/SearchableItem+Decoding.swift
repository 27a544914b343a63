internal import StrictJSON

extension SearchableItem {
    /// The limits of one item's text: an item nests four levels deep; the rest is room for what a
    /// later version may add.
    static let parserOptions = JSONParser.Options(maximumDepth: 64)

    /// Reads an item back from its JSON text (``jsonText``, SPEC §6's item shape), strictly: the text
    /// must be RFC 8259 JSON, every key the encoder always writes must be there, and every value must
    /// have its property's type (`null` included: the encoder leaves an absent value out). Keys that
    /// no property reads are ignored, so text from a later version that adds one still reads.
    ///
    /// Every property of the item and of the values it holds is read here; a test fills each one and
    /// fails on a property the text does not carry back, so a new field cannot be forgotten.
    /// - Throws: ``ItemDecodingError``, naming the byte offset of invalid JSON or the path of the
    ///   value that is wrong.
    package init(jsonText: String) throws(ItemDecodingError) {
        var text = jsonText
        let parsed = text.withUTF8 { bytes in
            Result { () throws(JSONParseError) in try JSONParser.parse(bytes, options: Self.parserOptions) }
        }
        switch parsed {
        case .success(let value):
            self = try ItemValue.object(value, SearchableItem.init(reading:))
        case .failure(let error):
            throw ItemDecodingError(.invalidJSON(error.reason, offset: error.offset))
        }
    }

    private init(reading object: ItemObject) throws(ItemDecodingError) {
        self.init(
            uniqueIdentifier: try object.required("uniqueIdentifier", ItemValue.string),
            webpageURL: try object.optional("webpageURL", ItemValue.string),
            sources: try object.required("sources") { (value) throws(ItemDecodingError) in
                try ItemValue.array(value, ItemValue.enumeration)
            },
            attributeSet: try object.required("attributeSet") { (value) throws(ItemDecodingError) in
                try ItemValue.object(value, AttributeSet.init(reading:))
            },
            deepLinks: try object.required("deepLinks") { (value) throws(ItemDecodingError) in
                try ItemValue.array(value) { (link) throws(ItemDecodingError) in
                    try ItemValue.object(link, DeepLink.init(reading:))
                }
            },
            searchAction: try object.optional("searchAction", ItemValue.string),
            engagement: try object.required("engagement", ItemValue.integer),
            expirationDate: try object.optional("expirationDate", ItemValue.string))
    }
}

extension DeepLink {
    init(reading object: ItemObject) throws(ItemDecodingError) {
        self.init(
            kind: try object.required("kind", ItemValue.enumeration),
            appStoreID: try object.optional("appStoreID", ItemValue.string),
            appName: try object.optional("appName", ItemValue.string),
            url: try object.optional("url", ItemValue.string),
            platform: try object.optional("platform", ItemValue.string),
            appClipBundleID: try object.optional("appClipBundleID", ItemValue.string),
            appID: try object.optional("appID", ItemValue.string))
    }
}
