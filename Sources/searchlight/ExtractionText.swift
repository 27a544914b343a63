import Foundation
import Items
import Markup

/// The human-readable summary of one extraction (`searchlight extract` without `--json`).
struct ExtractionText {
    let extraction: PageExtraction

    init(_ extraction: PageExtraction) {
        self.extraction = extraction
    }

    func render(path: String) -> String {
        let item = extraction.item
        let attributes = item.attributeSet
        var lines = ["\(path) → \(extraction.page.url)"]
        func field(_ name: String, _ value: String?) {
            if let value, !value.isEmpty {
                lines.append("  \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(value)")
            }
        }
        field("title", attributes.title)
        field("description", attributes.contentDescription)
        field("image", attributes.thumbnailURL)
        field("canonical", extraction.canonicalURL)
        field("keywords", attributes.keywords?.joined(separator: ", "))
        if let rating = attributes.rating {
            field("rating", "\(rating) of 5" + (attributes.ratingCount.map { " (\($0) ratings)" } ?? ""))
        }
        field(
            "price",
            attributes.offers?.compactMap { offer in offer.price.map { "\($0) \(offer.priceCurrency ?? "")" } }.joined(
                separator: ", "))
        field("phone", attributes.phoneNumbers?.joined(separator: ", "))
        field("search", item.searchAction)
        for link in item.deepLinks {
            field(
                "deep link",
                "\(link.kind.rawValue)\(link.platform.map { " (\($0))" } ?? ""): \(link.appStoreID.map { "app \($0)" } ?? "") \(link.url ?? "")"
            )
        }
        let robots = extraction.page.robots
        field(
            "robots",
            [
                robots.index ? "index" : "noindex", robots.follow ? "follow" : "nofollow",
                robots.snippet ? nil : "nosnippet",
            ].compactMap { $0 }.joined(separator: ", "))
        field(
            "structured",
            "\(extraction.page.jsonLD.count) JSON-LD, \(extraction.page.microdata.count) microdata, \(extraction.page.rdfa.count) RDFa"
        )
        field("links", "\(extraction.page.links.count) (\(extraction.page.links.filter(\.nofollow).count) nofollow)")
        lines.append("  checks:")
        for check in extraction.checks {
            lines.append(
                "    \(check.status.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0)) \(check.name): \(check.message)"
            )
        }
        let gate = extraction.appResult
        lines.append(
            "  app result:   "
                + (gate.isEligible ? "eligible" : "not eligible — " + gate.missing.joined(separator: "; ")))
        for issue in extraction.page.issues {
            lines.append("  \(issue.kind)\(issue.line.map { " (line \($0))" } ?? ""): \(issue.message)")
        }
        return lines.joined(separator: "\n")
    }
}
