import Foundation

/// A real HTTP/1.1 server on 127.0.0.1 for tests: serves a fixture site's files, and misbehaves on request.
///
/// Each test starts its own server on an ephemeral port, points a client at ``url(_:)``, and afterwards reads what
/// arrived (``requests()``) and how the client used connections (``peakConcurrentConnections()``,
/// ``totalConnections()``). Keep-alive is supported, so a client that reuses connections can be observed doing so.
///
/// ```swift
/// let server = try await FixtureServer.start(site: "example")
/// await server.setBehaviour(.hang, for: "/never")
/// // … fetch server.url("/") and server.url("/never") …
/// #expect(await server.totalConnections() == 2)
/// await server.stop()
/// ```
///
/// The server runs on plain threads, one for accepting and one per connection, blocking in `poll` on the socket and
/// on a stop pipe. That keeps its timing independent of the two-thread cooperative pool that the tests themselves
/// use, and lets ``stop()`` wake every wait, including hanging requests, at once.
package actor FixtureServer {
    /// The port the server listens on.
    package nonisolated let port: UInt16

    /// The folder served for GET and HEAD requests without a behaviour, or nil when only behaviours answer.
    package nonisolated let siteRoot: URL?

    /// The state the server's threads share.
    private let core: ServerCore

    /// `"http://127.0.0.1:PORT"`, with no trailing slash.
    package nonisolated var baseURL: String {
        "http://127.0.0.1:\(port)"
    }

    /// The absolute URL of `path` on this server; `path` starts with `/` (and may carry a query).
    package nonisolated func url(_ path: String) -> String {
        baseURL + path
    }

    /// Starts a server for the bundled site `site` (a folder of `Fixtures/sites/`), or for behaviours only.
    ///
    /// Returns once the socket is listening, so a client may connect immediately.
    ///
    /// - Parameters:
    ///   - site: the folder name under `Fixtures/sites/`, or nil to serve no files (every path without a behaviour
    ///     is 404).
    ///   - port: the port to listen on; 0, the default, lets the kernel pick a free one.
    /// - Throws: ``FixtureServerError`` when the site folder does not exist or the socket cannot listen.
    package static func start(site: String? = nil, port: UInt16 = 0) async throws -> FixtureServer {
        try await start(directory: site.map { Fixtures.site($0) }, port: port)
    }

    /// Starts a server that serves the files of any `directory` (or none when nil).
    ///
    /// - Throws: ``FixtureServerError`` when the folder does not exist or the socket cannot listen.
    package static func start(directory: URL?, port: UInt16 = 0) async throws -> FixtureServer {
        if let directory, !Fixtures.isDirectory(directory) {
            throw FixtureServerError.siteNotFound(path: directory.path)
        }
        let core = try ServerCore(siteRoot: directory)
        let listener = try Listener(port: port)
        core.spawn(named: "fixture-accept-\(listener.port)") {
            listener.run(core: core)
        }
        return FixtureServer(port: listener.port, siteRoot: directory, core: core)
    }

    private init(port: UInt16, siteRoot: URL?, core: ServerCore) {
        self.port = port
        self.siteRoot = siteRoot
        self.core = core
    }

    deinit {
        // A test that forgot stop() must not leave threads and a listening socket behind: wake them so they exit.
        core.stopSignal.fire()
    }

    /// Makes requests for exactly `path` (the path without its query) behave as `behaviour`, instead of serving a
    /// file; replaces any behaviour set before and restarts a `.sequence`.
    package func setBehaviour(_ behaviour: FixtureBehaviour, for path: String) {
        core.setBehaviour(behaviour, for: path)
    }

    /// Makes every file of the served site wait `delay` before it is sent, as a slow site does (`nil`: none).
    /// Paths with a behaviour are not affected.
    package func setSiteFileDelay(_ delay: Duration?) {
        core.setSiteFileDelay(delay)
    }

    /// Removes the behaviour for `path`, so it serves the site's file again (or 404).
    package func removeBehaviour(for path: String) {
        core.setBehaviour(nil, for: path)
    }

    /// Every request received so far, in arrival order.
    package func requests() -> [FixtureRequest] {
        core.statistics().log
    }

    /// The requests received so far whose path without query is `route`, in arrival order.
    package func requests(to route: String) -> [FixtureRequest] {
        core.statistics().log.filter { $0.route == route }
    }

    /// The largest number of TCP connections that were open at the same time.
    package func peakConcurrentConnections() -> Int {
        core.statistics().peakConnections
    }

    /// The largest number of requests being handled at the same time (received, response not yet complete).
    package func peakConcurrentRequests() -> Int {
        core.statistics().peakRequests
    }

    /// How many TCP connections the server has accepted.
    package func totalConnections() -> Int {
        core.statistics().total
    }

    /// How many TCP connections are open now.
    package func openConnections() -> Int {
        core.statistics().open
    }

    /// Empties the request log and resets the peaks to the current counts (total connections keep counting).
    package func resetStatistics() {
        core.resetStatistics()
    }

    /// Waits until at least `count` requests have arrived, checking every few milliseconds, for at most `timeout`.
    ///
    /// - Returns: whether the count was reached in time.
    package func waitForRequests(_ count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while core.statistics().log.count < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Waits until at least `count` connections have been accepted in total, for at most `timeout`.
    ///
    /// This counts accepted connections, so `waitForConnections(0)` returns at once; to wait for connections to
    /// close, use ``waitForOpenConnections(atMost:timeout:)``.
    ///
    /// - Returns: whether the count was reached in time.
    package func waitForConnections(_ count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while core.statistics().total < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Waits until at most `count` connections are open (for example 0: the client has closed everything), for at
    /// most `timeout`.
    ///
    /// - Returns: whether the count dropped that far in time.
    package func waitForOpenConnections(atMost count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while core.statistics().open > count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Stops listening, closes every connection (hanging ones included), and returns when all the server's threads
    /// have finished. Calling it again returns at once.
    package func stop() async {
        await core.stop()
    }
}
