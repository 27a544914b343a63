internal import StrictJSON

/// The members of one JSON object sorted into the fields a record declares: one pass over the
/// members; a repeated key keeps its first value (as `JSONDecoder` does); unknown keys are ignored.
struct RecordFields {
    private var values: [JSONValue?]
    let path: FieldPath

    /// - Parameter names: the record's field names, in declaration order.
    init(_ members: [JSONMember], names: [String], at path: FieldPath) {
        values = Array(repeating: nil, count: names.count)
        self.path = path
        for member in members {
            // Comparing lengths first leaves about one full comparison per member (cheaper than hashing).
            let length = member.key.utf8.count
            for index in names.indices where names[index].utf8.count == length && names[index] == member.key {
                if values[index] == nil { values[index] = member.value }
                break
            }
        }
    }

    subscript(_ index: Int) -> JSONValue? { values[index] }
}

// Each reader converts the fields in declaration order, so the first problem reported is the one the
// Codable conformance (and so the earlier import) reported first.

extension UserActivityRecord {
    private static let names = [
        "bundleIdentifier", "donor", "activityType", "title", "webpageURL", "userInfo", "requiredUserInfoKeys",
        "keywords", "persistentIdentifier", "expirationDate", "isEligibleForSearch", "isEligibleForPublicIndexing",
        "isEligibleForHandoff", "isEligibleForPrediction", "contentAttributeSet",
    ]

    /// Reads a `userActivity` line's object (all of `userInfo` included; the parser reduces it).
    init(reading members: [JSONMember]) throws(FieldError) {
        let fields = RecordFields(members, names: Self.names, at: .root)
        bundleIdentifier = try FieldReader.requiredString(fields[0], Self.names[0], in: fields.path)
        donor = try FieldReader.requiredString(fields[1], Self.names[1], in: fields.path)
        activityType = try FieldReader.requiredString(fields[2], Self.names[2], in: fields.path)
        title = try FieldReader.text(fields[3], Self.names[3], in: fields.path)
        webpageURL = try FieldReader.string(fields[4], Self.names[4], in: fields.path)
        userInfo = try FieldReader.userInfo(fields[5], Self.names[5], in: fields.path)
        requiredUserInfoKeys = try FieldReader.strings(fields[6], Self.names[6], in: fields.path)
        keywords = try FieldReader.texts(fields[7], Self.names[7], in: fields.path)
        persistentIdentifier = try FieldReader.string(fields[8], Self.names[8], in: fields.path)
        expirationDate = try FieldReader.string(fields[9], Self.names[9], in: fields.path)
        isEligibleForSearch = try FieldReader.bool(fields[10], Self.names[10], in: fields.path)
        isEligibleForPublicIndexing = try FieldReader.bool(fields[11], Self.names[11], in: fields.path)
        isEligibleForHandoff = try FieldReader.bool(fields[12], Self.names[12], in: fields.path)
        isEligibleForPrediction = try FieldReader.bool(fields[13], Self.names[13], in: fields.path)
        contentAttributeSet = try FieldReader.object(fields[14], Self.names[14], in: fields.path).map {
            (members) throws(FieldError) in
            try DonatedAttributes(reading: members, at: fields.path.member(Self.names[14]))
        }
    }
}

extension SearchableItemRecord {
    private static let names = [
        "bundleIdentifier", "uniqueIdentifier", "domainIdentifier", "expirationDate", "attributeSet",
    ]

    /// Reads a `searchableItem` line's object.
    init(reading members: [JSONMember]) throws(FieldError) {
        let fields = RecordFields(members, names: Self.names, at: .root)
        bundleIdentifier = try FieldReader.requiredString(fields[0], Self.names[0], in: fields.path)
        uniqueIdentifier = try FieldReader.requiredString(fields[1], Self.names[1], in: fields.path)
        domainIdentifier = try FieldReader.string(fields[2], Self.names[2], in: fields.path)
        expirationDate = try FieldReader.string(fields[3], Self.names[3], in: fields.path)
        attributeSet = try FieldReader.object(fields[4], Self.names[4], in: fields.path).map {
            (members) throws(FieldError) in
            try DonatedAttributes(reading: members, at: fields.path.member(Self.names[4]))
        }
    }
}

extension DeletionRecord {
    private static let names = ["bundleIdentifier", "uniqueIdentifiers", "domainIdentifiers", "all"]

    /// Reads a `delete` line's object.
    init(reading members: [JSONMember]) throws(FieldError) {
        let fields = RecordFields(members, names: Self.names, at: .root)
        self.init(
            bundleIdentifier: try FieldReader.requiredString(fields[0], Self.names[0], in: fields.path),
            uniqueIdentifiers: try FieldReader.strings(fields[1], Self.names[1], in: fields.path),
            domainIdentifiers: try FieldReader.strings(fields[2], Self.names[2], in: fields.path),
            all: try FieldReader.bool(fields[3], Self.names[3], in: fields.path))
    }
}

extension DonatedAttributes {
    private static let names = [
        "title", "contentDescription", "thumbnailURL", "keywords", "relatedUniqueIdentifier",
        "weakRelatedUniqueIdentifier", "domainIdentifier", "contentURL", "rating", "ratingCount",
    ]

    /// Reads `contentAttributeSet` or `attributeSet` at `path`.
    init(reading members: [JSONMember], at path: FieldPath) throws(FieldError) {
        let fields = RecordFields(members, names: Self.names, at: path)
        self.init(
            title: try FieldReader.text(fields[0], Self.names[0], in: fields.path),
            contentDescription: try FieldReader.text(fields[1], Self.names[1], in: fields.path),
            thumbnailURL: try FieldReader.string(fields[2], Self.names[2], in: fields.path),
            keywords: try FieldReader.texts(fields[3], Self.names[3], in: fields.path),
            relatedUniqueIdentifier: try FieldReader.string(fields[4], Self.names[4], in: fields.path),
            weakRelatedUniqueIdentifier: try FieldReader.string(fields[5], Self.names[5], in: fields.path),
            domainIdentifier: try FieldReader.string(fields[6], Self.names[6], in: fields.path),
            contentURL: try FieldReader.string(fields[7], Self.names[7], in: fields.path),
            rating: try FieldReader.double(fields[8], Self.names[8], in: fields.path),
            ratingCount: try FieldReader.int(fields[9], Self.names[9], in: fields.path))
    }
}
