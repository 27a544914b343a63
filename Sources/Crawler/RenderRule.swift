import Items
import Markup

/// `crawl --render`: whether pages are rendered in a headless browser before extraction.
package enum RenderMode: String, Sendable, Hashable, CaseIterable {
    /// Only the served HTML is read.
    case never
    /// Pages the render rule picks are rendered (``RenderRule``).
    case auto
    /// Every HTML page is rendered.
    case always
}

/// What the render rule decided for one HTML page, counted in ``CrawlCounters/rendering``.
package enum RenderDecision: String, Sendable, Hashable, CaseIterable {
    /// Rendered, and extracted from the rendered DOM.
    case rendered
    /// `auto`: the served HTML has what a searchable item needs, or says `noindex`.
    case notNeeded = "not-needed"
    /// `auto`: the served HTML lacks something, but has no script that could supply it.
    case noScripts = "no-scripts"
    /// Not rendered: robots.txt disallows one of the page's own scripts for the crawler, so the page cannot be
    /// rendered as its site means it to be.
    case scriptsDisallowed = "scripts-disallowed"
    /// The render failed (its error is counted among the crawl's errors as `render-…`).
    case failed
}

/// The `auto` rule (Docs/markup.md, "When a page is rendered"): render a page whose served HTML lacks what a
/// searchable item needs — a title, a description, or any structured data (JSON-LD, microdata, RDFa, or a
/// deep link from a Smart App Banner, App Links or a Twitter app card) — and carries a script, or that has
/// an empty application root, whatever else it has.
package enum RenderRule {
    /// Whether the page needs rendering: `nil` when it does, else the decision not to.
    package static func reasonNotToRender(markup: PageMarkup, item: SearchableItem) -> RenderDecision? {
        guard markup.robots.index else { return .notNeeded }
        if markup.scripts.hasEmptyApplicationRoot && markup.scripts.count > 0 { return nil }
        guard !missing(markup: markup, item: item).isEmpty else { return .notNeeded }
        return markup.scripts.count > 0 ? nil : .noScripts
    }

    /// What the served page lacks of a title, a description and structured data.
    package static func missing(markup: PageMarkup, item: SearchableItem) -> [String] {
        var missing: [String] = []
        if item.attributeSet.title == nil { missing.append("title") }
        if item.attributeSet.contentDescription == nil { missing.append("description") }
        let structured =
            !markup.jsonLD.isEmpty || !markup.microdata.isEmpty || !markup.rdfa.allSatisfy(\.types.isEmpty)
            || !item.deepLinks.isEmpty
        if !structured { missing.append("structured data") }
        return missing
    }
}
