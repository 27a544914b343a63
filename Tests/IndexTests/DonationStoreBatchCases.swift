import FixtureServer
import Foundation
import Store
import TestSupport

/// The cases of ``DonationStoreBatchTests``: each stated once, with the totals it must come to.
extension BatchCase {
    static let all: [BatchCase] = [
        BatchCase(
            name: "one donor giving an activity twice in a batch counts once",
            batches: [[activity("x", donor: "a"), activity("x", donor: "a")]],
            expected: Totals(new: 1, stored: 1)),
        BatchCase(
            name: "content changed and changed back in one batch changes the row each time",
            batches: [
                [
                    activity("x", donor: "a", title: "One"), activity("x", donor: "a", title: "Two"),
                    activity("x", donor: "a", title: "One"),
                ]
            ],
            expected: Totals(new: 1, stored: 3)),
        BatchCase(
            name: "an activity reaching the threshold part-way is stored from that record on",
            threshold: 3,
            batches: [
                ["a", "b"].map { activity("x", donor: $0, page: "https://a.test/x") }
                    + [activity("y", donor: "a")]
                    + ["c", "d", "c"].map { activity("x", donor: $0, page: "https://a.test/x") }
            ],
            expected: Totals(new: 5, below: 3, stored: 2)),
        BatchCase(
            name: "a second batch: its first record of a row is compared with the stored row",
            batches: [
                [activity("x", donor: "a", title: "One"), item("i1", domain: "d")],
                [
                    activity("x", donor: "a", title: "One"), activity("x", donor: "a", title: "Two"),
                    activity("x", donor: "b", title: "Two"), activity("z", donor: "a"),
                    item("i1", domain: "d"), item("i1", domain: "d.e"), item("i1", domain: "d"),
                ],
            ],
            expected: Totals(new: 3, stored: 4, items: 3)),
        BatchCase(
            name: "a row changed and changed back to what is stored changes twice",
            batches: [
                [activity("x", donor: "a", title: "One", rating: 4), item("i1", expires: 5)],
                [
                    activity("x", donor: "a", title: "Two", rating: 4),
                    activity("x", donor: "a", title: "One", rating: 4),
                    item("i1", expires: 6), item("i1", expires: 5),
                ],
            ],
            expected: Totals(new: 1, stored: 3, items: 3)),
        BatchCase(
            name: "withheld records are each counted, each hash stored once with its first reason",
            batches: [
                [
                    withheld("h1", reason: "expired"), withheld("h1", reason: "notEligibleForPublicIndexing"),
                    withheld("h2", reason: "expired"),
                ],
                [withheld("h1", reason: "expired")],
            ],
            expected: Totals(withheld: 4)),
        BatchCase(
            name: "a web page is queued by each change, unless the crawler fetched it",
            setUp: [
                """
                INSERT INTO crawl_url (url, url_key, host, kind, depth, source, run_id, state) VALUES
                ('https://a.test/fetched', 'https://a.test/fetched', 'a.test', 'page', 0, 'link', 1, 'done'),
                ('https://a.test/queued', 'https://a.test/queued', 'a.test', 'page', 0, 'link', 1, 'queued')
                """
            ],
            batches: [
                [
                    activity("f", donor: "a", page: "https://a.test/fetched"),
                    activity("q", donor: "a", page: "https://a.test/queued"),
                    activity("s1", donor: "a", page: "https://a.test/shared"),
                    activity("s2", donor: "a", page: "https://a.test/shared"),
                    activity("v", donor: "a", page: "https://a.test/v1"),
                    // The same identity with another page (only a forged record has one): each change queues
                    // its own record's page, here after the first change in the batch and in the next batch.
                    activity("u", donor: "a"), activity("u", donor: "a", title: "New", page: "https://a.test/u"),
                ],
                [activity("v", donor: "a", title: "New", page: "https://a.test/v2")],
            ],
            expected: Totals(new: 6, stored: 8)),
        BatchCase(
            name: "after a deletion in the middle of a batch donors count afresh",
            threshold: 2,
            batches: [
                [
                    item("i1"), activity("x", donor: "a", page: "https://a.test/x", related: "i1"),
                    activity("x", donor: "b", page: "https://a.test/x", related: "i1"), deleting(["i1"]),
                    activity("x", donor: "a", page: "https://a.test/x", related: "i1"), item("i1"),
                    activity("x", donor: "b", page: "https://a.test/x", related: "i1"),
                    activity("y", donor: "a", related: "i2"),
                ]
            ],
            expected: Totals(new: 5, below: 3, stored: 2, items: 2)),
        mixed(seed: 1), mixed(seed: 2), mixed(seed: 3),
    ]

    /// Three batches of 300 records drawn (seeded) from a few activities, donors, pages, items and
    /// withheld hashes, with a deletion now and then: every within-batch meeting, many times over.
    static func mixed(seed: UInt64) -> BatchCase {
        var random = SeededRandom(seed: seed)
        var batches: [[DonationWrite]] = []
        for _ in 0..<3 {
            var batch: [DonationWrite] = []
            for _ in 0..<300 {
                let roll = random.next(below: 100)
                if roll < 75 {
                    let id = "a\(random.next(below: 12))"
                    batch.append(
                        activity(
                            id, donor: "d\(random.next(below: 5))", title: "T\(random.next(below: 3))",
                            page: random.next(below: 4) == 0 ? nil : "https://a.test/\(id)",
                            related: "i\(random.next(below: 6))", rating: random.next(below: 2) == 0 ? 4.5 : nil))
                } else if roll < 88 {
                    batch.append(
                        item(
                            "i\(random.next(below: 6))", domain: random.next(below: 2) == 0 ? "d" : nil,
                            expires: random.next(below: 2) == 0 ? 5 : nil))
                } else if roll < 97 {
                    batch.append(
                        withheld(
                            "h\(random.next(below: 20))",
                            reason: random.next(below: 2) == 0 ? "expired" : "notEligibleForPublicIndexing"))
                } else {
                    batch.append(deleting(["i\(random.next(below: 6))"]))
                }
            }
            batches.append(batch)
        }
        return BatchCase(name: "a seeded mix of every kind of record (seed \(seed))", threshold: 2, batches: batches)
    }
}

extension SeededRandom {
    /// A number in `0..<bound` (the next 64 bits modulo `bound`: slightly uneven, and the same on every run).
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
