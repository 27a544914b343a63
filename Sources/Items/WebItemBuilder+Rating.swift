import Markup
internal import StrictJSON

extension WebItemBuilder {
    /// `AggregateRating` (SPEC §2): `ratingValue × 5 ÷ bestRating`, `bestRating` defaulting to 5
    /// as schema.org says, clamped to 0–5; `ratingCount`, else `reviewCount`.
    func applyRating(to attributes: inout AttributeSet, findings: inout [MappingFinding]) {
        guard let rating = Self.rating(in: graph.entities, findings: &findings) else { return }
        attributes.rating = rating.value
        attributes.ratingCount = rating.count
    }

    /// The first usable rating among `entities` (an `AggregateRating`, or an entity's
    /// `aggregateRating`), on 0–5 with two decimals.
    ///
    /// `worstRating` does not move the scale: schema.org's defaults (best 5, worst 1) written out
    /// must give the same rating as none written, so 3 of 5 is 3 either way. It only validates: a
    /// `ratingValue` below a stated `worstRating`, or above `bestRating`, is a finding. A
    /// `bestRating` that is zero or negative leaves that rating out (a finding too); a
    /// `ratingValue` that is not a finite number is no rating.
    static func rating(in entities: [JSONValue], findings: inout [MappingFinding]) -> (value: Double, count: Int?)? {
        for entity in entities {
            let candidates =
                SchemaGraph.types(of: entity).contains("AggregateRating")
                ? [entity] : (entity["aggregateRating"]?.listValue ?? [])
            for rating in candidates {
                guard let value = number(rating["ratingValue"]) else { continue }
                let best = number(rating["bestRating"]) ?? 5
                guard best > 0 else {
                    findings.append(.ratingScaleUnusable(best: best))
                    continue
                }
                if value > best { findings.append(.ratingAboveBest(value: value, best: best)) }
                if let worst = number(rating["worstRating"]), value < worst {
                    findings.append(.ratingBelowWorst(value: value, worst: worst))
                }
                let scaled = min(5, max(0, value * 5 / best))
                let count = (rating["ratingCount"] ?? rating["reviewCount"])?.listValue.first?.doubleValue
                    .flatMap(Self.count)
                return ((scaled * 100).rounded() / 100, count)
            }
        }
        return nil
    }

    /// The first value of a property as a finite number (a JSON number or numeric text).
    private static func number(_ value: JSONValue?) -> Double? {
        guard let number = value?.listValue.first?.doubleValue, number.isFinite else { return nil }
        return number
    }
}
