import Testing

@testable import Crawler

@Suite("When a page is due again")
struct RevisitPolicyTests {
    static let hour = 3600.0
    static let day = 86_400.0

    @Test(
        "the interval starts at a day, doubles when unchanged, halves when changed, within the bounds",
        arguments: [
            (RevisitPolicy.Finding.first, nil, day, day),
            (.unchanged, day, 2 * day, 2 * day),
            (.unchanged, 20 * day, 30 * day, 30 * day),
            (.changed, day, day / 2, day / 2),
            (.changed, 1.5 * hour, hour, hour),
            (.failed, 8 * day, 8 * day, hour),
            (.unchanged, nil, 2 * day, 2 * day),
        ] as [(RevisitPolicy.Finding, Double?, Double, Double)])
    func intervals(finding: RevisitPolicy.Finding, previous: Double?, interval: Double, wait: Double) {
        let next = RevisitPolicy().schedule(after: finding, previous: previous, at: 1000)
        #expect(next.interval == interval)
        #expect(next.nextVisitAt == 1000 + wait)
    }

    @Test("a response's freshness lifetime and an item's lifetime bring the visit sooner, never under the minimum")
    func caps() {
        let policy = RevisitPolicy(itemLifetime: 30 * Self.day)
        #expect(
            policy.schedule(after: .unchanged, previous: 8 * Self.day, at: 0, lifetime: 2 * Self.hour).nextVisitAt
                == 2 * Self.hour)
        #expect(policy.schedule(after: .unchanged, previous: 8 * Self.day, at: 0, lifetime: 5).nextVisitAt == Self.hour)
        let capped = policy.schedule(after: .unchanged, previous: 30 * Self.day, at: 0)
        #expect(capped.interval == 30 * Self.day && capped.nextVisitAt == 27 * Self.day)
        let bounds = RevisitPolicy(minimumInterval: 7200, maximumInterval: 60)
        #expect(bounds.maximumInterval == 7200)
    }

    @Test(
        "Cache-Control and Expires as a shared cache reads them",
        arguments: [
            ("max-age=600", nil, nil, 600.0),
            ("public, s-maxage=60, max-age=600", nil, nil, 60.0),
            ("max-age=\"90\"", nil, nil, 90.0),
            (nil, "Thu, 01 Jan 1970 01:00:00 GMT", "Thu, 01 Jan 1970 00:30:00 GMT", 1800.0),
            (nil, "Thu, 01 Jan 1970 01:00:00 GMT", nil, 3600.0),
            ("public", "Thu, 01 Jan 1970 00:10:00 GMT", nil, 600.0),
            ("max-age=600, =, ,=5", nil, nil, 600.0),
        ] as [(String?, String?, String?, Double)])
    func lifetime(cacheControl: String?, expires: String?, date: String?, seconds: Double) {
        #expect(FreshnessLifetime.seconds(cacheControl: cacheControl, expires: expires, date: date, now: 0) == seconds)
    }

    @Test(
        "a response that says nothing, or nothing above zero, or nonsense, has no lifetime",
        arguments: [
            ("public, must-revalidate", nil), (nil, nil), ("no-cache", nil), ("private, no-store, max-age=600", nil),
            ("max-age=0", nil), ("max-age=-5", nil), ("=", nil), (nil, "0"), (nil, "Thu, 01 Jan 1970 00:00:00 GMT"),
            ("max-age=x", "not a date"),
        ] as [(String?, String?)])
    func noLifetime(cacheControl: String?, expires: String?) {
        #expect(FreshnessLifetime.seconds(cacheControl: cacheControl, expires: expires, date: nil, now: 60) == nil)
    }
}
