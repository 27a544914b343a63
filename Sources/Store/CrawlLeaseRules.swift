/// What both engines' crawl leases share (``CrawlStore``): how soon a worker asks again, and the names and
/// forms of the rows they read alike.
enum CrawlLeaseRules {
    /// How soon a worker looks again at a host whose slots are all taken by others.
    static let slotPollInterval = 0.05

    /// The name of robots.txt's host file and task, whose failures the pass records in `crawl_host`.
    static let robotsFileName = "robots.txt"

    /// How soon a worker looks again at a host whose robots.txt or apple-app-site-association another
    /// worker is fetching.
    static let taskPollInterval = 0.1

    /// The lines of `text` (newline-separated values a query aggregated), none for `nil`.
    static func lines(_ text: String?) -> [String] {
        text.map { $0.split(separator: "\n").map(String.init) } ?? []
    }
}
