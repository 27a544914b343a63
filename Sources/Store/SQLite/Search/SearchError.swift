import SearchQuery

/// Why a search or an export could not run.
package enum SearchError: Error, Sendable, CustomStringConvertible {
    /// Neither free text with a word in it nor a query was given.
    case nothingToSearch
    /// The free text is longer than the limit (in characters).
    case textTooLong(limit: Int)
    /// The free text has more words than the limit.
    case tooManyWords(limit: Int)
    /// The `CSSearchQuery` string does not parse, names an unknown attribute or compares with a
    /// value of the wrong kind; the column (1-based) is where that is written.
    case query(QuerySyntaxError)
    /// The limit of results is out of range.
    case invalidLimit(Int)
    /// The store could not be read.
    case store(StoreError)

    /// Whether the search itself was wrong (a usage error, SPEC §7 exit 2) rather than the store.
    package var isUsageError: Bool {
        if case .store = self { return false }
        return true
    }

    package var description: String {
        switch self {
        case .nothingToSearch: "nothing to search for: the text has no letters or digits"
        case .textTooLong(let limit): "the search text is longer than \(limit) characters"
        case .tooManyWords(let limit): "the search text has more than \(limit) words"
        case .query(let error): error.description
        case .invalidLimit(let limit): "the limit \(limit) is not between 1 and \(PublicSearch.maxLimit)"
        case .store(let error): error.description
        }
    }
}
