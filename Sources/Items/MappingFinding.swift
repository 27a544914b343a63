/// Something the mapping from markup to item refused or doubted on the way. The item never
/// carries a refused value; the finding says what was left out and why, as a check warning in
/// `extract` and `validate`.
package enum MappingFinding: Sendable, Hashable {
    /// A URL left out of the item.
    case refusedURL(URLRefusal)
    /// `<a href>` targets with a scheme no field publishes (`javascript:void(0)` and the like):
    /// how many, and the first. Such links are not followed.
    case refusedLinks(first: URLRefusal, count: Int)
    /// An `AggregateRating` whose `ratingValue` is above its `bestRating` (default 5): the
    /// scaled rating was clamped to 5.
    case ratingAboveBest(value: Double, best: Double)
    /// An `AggregateRating` whose `ratingValue` is below its stated `worstRating`.
    case ratingBelowWorst(value: Double, worst: Double)
    /// An `AggregateRating` whose `bestRating` is zero or negative: nothing to scale by, no rating.
    case ratingScaleUnusable(best: Double)

    /// The finding as a check: `url` for a refused URL, `rating` for a rating; always a warning.
    package var check: MarkupCheck {
        switch self {
        case .refusedURL(let refusal):
            return MarkupCheck(name: "url", status: .warn, message: refusal.message)
        case .refusedLinks(let first, let count):
            let more = count > 1 ? " (and \(count - 1) more link\(count == 2 ? "" : "s") like it)" : ""
            return MarkupCheck(name: "links", status: .warn, message: first.message + more)
        case .ratingAboveBest(let value, let best):
            return MarkupCheck(
                name: "rating", status: .warn,
                message: "ratingValue \(Self.format(value)) is above bestRating \(Self.format(best)); shown as 5 of 5")
        case .ratingBelowWorst(let value, let worst):
            return MarkupCheck(
                name: "rating", status: .warn,
                message: "ratingValue \(Self.format(value)) is below worstRating \(Self.format(worst))")
        case .ratingScaleUnusable(let best):
            return MarkupCheck(
                name: "rating", status: .warn,
                message: "bestRating \(Self.format(best)) is not a positive number; the rating is left out")
        }
    }

    private static func format(_ value: Double) -> String {
        AttributeSet.format(value)
    }
}
