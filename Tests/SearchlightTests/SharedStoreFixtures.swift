import Foundation
import GRDB

/// Generated inputs for the shared-store tests: a web site large enough that its crawl spans the
/// other processes' work, and a donation file large enough that its import takes seconds.
enum SharedStoreFixtures {
    /// Words the titles draw from, so searches find something in both pages and donations.
    static let words = ["lemon", "tart", "rye", "loaf", "fig", "walnut", "pesto", "basil", "plum", "taco"]

    /// The path of page `page` of section `section`.
    static func pagePath(section: Int, page: Int) -> String { "/s\(section)/p\(page).html" }

    /// Writes a site to `folder`: `/index.html` links every section, each section index links its
    /// pages, each page links the next one. `1 + sections × (1 + pages)` HTML pages in all, every one
    /// public (a title, a description, no robots rules).
    static func writeSite(in folder: URL, sections: Int, pages: Int) throws {
        let links = (0..<sections).map { "<a href=\"/s\($0)/index.html\">Section \($0)</a>" }
        try page(title: "Generated site", body: links.joined(separator: "\n"))
            .write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        for section in 0..<sections {
            let directory = folder.appendingPathComponent("s\(section)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let list = (0..<pages).map { "<a href=\"\(pagePath(section: section, page: $0))\">Page \($0)</a>" }
            try page(title: "Section \(section) \(word(section))", body: list.joined(separator: "\n"))
                .write(to: directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            for number in 0..<pages {
                let next = pagePath(section: section, page: (number + 1) % pages)
                try page(
                    title: "Page \(section)-\(number) \(word(number)) \(word(section + number + 3))",
                    body: "<p>About \(word(number + 1)).</p><a href=\"\(next)\">Next</a>"
                )
                .write(to: directory.appendingPathComponent("p\(number).html"), atomically: true, encoding: .utf8)
            }
        }
    }

    private static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>\(title)</title>
        <meta name="description" content="\(title), a generated page."></head>
        <body>\(body)</body></html>
        """
    }

    /// Writes a donation file (SPEC §6) to `file` and returns its record count: `searchableItems`
    /// searchable items; `activities` activities opened by their required user info, the first
    /// `searchableItems` of them related to those items; one activity per URL of `webPages`; each
    /// activity donated by three donors (the default engagement threshold), activity after activity.
    static func writeDonations(to file: URL, activities: Int, searchableItems: Int, webPages: [String]) throws -> Int {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let output = try FileHandle(forWritingTo: file)
        defer { try? output.close() }
        var text = ""
        var records = 0
        func emit(_ record: [String: Any]) throws {
            text += String(decoding: try JSONSerialization.data(withJSONObject: record, options: []), as: UTF8.self)
            text += "\n"
            records += 1
            if text.utf8.count > 1 << 20 {
                try output.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        for number in 0..<searchableItems {
            try emit([
                "type": "searchableItem", "bundleIdentifier": bundle, "uniqueIdentifier": "item-\(number)",
                "domainIdentifier": "recipes.\(word(number))", "attributeSet": ["title": "Item \(number)"],
            ])
        }
        for number in 0..<activities {
            var attributes: [String: Any] = [
                "title": "Recipe \(number) \(word(number)) \(word(number / 10))",
                "contentDescription": "A \(word(number + 2)) recipe, number \(number).",
            ]
            if number < searchableItems { attributes["relatedUniqueIdentifier"] = "item-\(number)" }
            for donor in 0..<3 {
                try emit(
                    activity(
                        donor: donor,
                        [
                            "title": "Recipe \(number)", "userInfo": ["id": "r\(number)", "session": "s\(donor)"],
                            "requiredUserInfoKeys": ["id"], "keywords": [word(number)],
                            "contentAttributeSet": attributes,
                        ]))
            }
        }
        for (number, url) in webPages.enumerated() {
            for donor in 0..<3 {
                try emit(activity(donor: donor, ["title": "Web \(number) \(word(number))", "webpageURL": url]))
            }
        }
        try output.write(contentsOf: Data(text.utf8))
        return records
    }

    private static let bundle = "com.example.concurrency"

    private static func activity(donor: Int, _ fields: [String: Any]) -> [String: Any] {
        var record: [String: Any] = [
            "type": "userActivity", "bundleIdentifier": bundle, "donor": "device-\(donor)",
            "activityType": "com.example.concurrency.view", "isEligibleForPublicIndexing": true,
            "isEligibleForSearch": true, "expirationDate": "2099-01-01T00:00:00Z",
        ]
        record.merge(fields) { $1 }
        return record
    }

    private static func word(_ number: Int) -> String { words[number % words.count] }
}

/// What a store holds after a run, for comparing a concurrent run with a sequential one.
struct StoreContents: Equatable, CustomStringConvertible {
    /// Row counts by name (`page`, `public_item`, `crawl_url done`, …).
    var counts: [String: Int]
    /// The published items' unique identifiers, sorted.
    var publishedIdentifiers: [String]

    /// The counts that must not depend on how the processes interleaved.
    static let queries: [(String, String)] = [
        ("page", "SELECT count(*) FROM page"),
        ("page indexable", "SELECT count(*) FROM page WHERE is_indexable = 1"),
        ("crawl_url done", "SELECT count(*) FROM crawl_url WHERE state = 'done'"),
        ("crawl_url not done", "SELECT count(*) FROM crawl_url WHERE state != 'done'"),
        ("donation", "SELECT count(*) FROM donation"),
        ("activity", "SELECT count(*) FROM activity"),
        ("activity donors", "SELECT coalesce(sum(donors), 0) FROM activity"),
        ("app_item", "SELECT count(*) FROM app_item"),
        ("withheld_record", "SELECT count(*) FROM withheld_record"),
        ("cluster", "SELECT count(*) FROM cluster"),
        ("cluster published", "SELECT count(*) FROM cluster WHERE published = 1"),
        ("public_item", "SELECT count(*) FROM public_item"),
        ("public_fts matches", "SELECT count(*) FROM public_fts WHERE public_fts MATCH 'recipe OR page'"),
    ]

    /// Reads the store at `path` through a read-only connection.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        (counts, publishedIdentifiers) = try queue.read { db in
            var counts: [String: Int] = [:]
            for (name, sql) in Self.queries { counts[name] = try Int.fetchOne(db, sql: sql) ?? -1 }
            let identifiers = try String.fetchAll(
                db, sql: "SELECT unique_identifier FROM public_item ORDER BY unique_identifier")
            return (counts, identifiers)
        }
    }

    var description: String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}

/// `PRAGMA integrity_check` of the store at `path`, through a read-only connection.
func integrityCheck(path: String) throws -> [String] {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
}
