/// One hop of a redirect chain.
public struct RedirectHop: Sendable, Hashable {
    /// The URL that was requested.
    public var url: String
    /// Its status code (3xx for every hop but the last).
    public var status: Int
    /// The redirect target, resolved against ``url``; `nil` on the last hop.
    public var location: String?

    /// Creates a hop.
    public init(url: String, status: Int, location: String?) {
        self.url = url
        self.status = status
        self.location = location
    }
}

/// The outcome of ``Fetcher/fetchFollowingRedirects(_:maxHops:shouldFollow:)``.
public struct RedirectedResponse: Sendable, Hashable {
    /// The last response: not a redirect, or a redirect that was not followed.
    public var response: FetchResponse
    /// Every request made, in order; the last entry is ``response``.
    public var chain: [RedirectHop]

    /// Creates a result from the last response and the hops that led to it.
    public init(response: FetchResponse, chain: [RedirectHop]) {
        self.response = response
        self.chain = chain
    }

    /// The URL the chain ended at.
    public var finalURL: String { response.url }
    /// How many redirects were followed.
    public var redirectCount: Int { chain.count - 1 }
}

extension Fetcher {
    /// Fetches `request` and follows redirects one hop at a time, each hop a separate
    /// transfer under the same scheme and address checks (each URL read once by libcurl's parser).
    ///
    /// - Parameters:
    ///   - maxHops: The most redirects followed; one more throws ``FetchError/Kind/tooManyRedirects``.
    ///   - shouldFollow: Asked before every hop with the target URL; returning `false`
    ///     stops the chain and returns the redirect response itself (scope and robots checks go here).
    /// - Throws: ``FetchError`` for transport failures, a loop (``FetchError/Kind/redirectLoop``)
    ///   or too many hops.
    public func fetchFollowingRedirects(
        _ request: FetchRequest,
        maxHops: Int = 5,
        shouldFollow: @Sendable (String) async -> Bool = { _ in true }
    ) async throws -> RedirectedResponse {
        var chain: [RedirectHop] = []
        var visited: Set<String> = []
        var current = request
        var target = try CurlURL(request.url)
        while true {
            visited.insert(target.normalized)
            let response = try await fetch(current, target: target)
            chain.append(RedirectHop(url: current.url, status: response.status, location: response.location))
            guard response.isRedirect, let location = response.location else {
                return RedirectedResponse(response: response, chain: chain)
            }
            let next = try CurlURL(location)
            if visited.contains(next.normalized) {
                throw FetchError(
                    kind: .redirectLoop, url: request.url,
                    message: "redirect loop: \(current.url) leads back to \(location) after \(chain.count) hop(s)")
            }
            guard chain.count <= maxHops else {
                throw FetchError(
                    kind: .tooManyRedirects, url: request.url, message: "more than \(maxHops) redirects")
            }
            guard await shouldFollow(location) else {
                return RedirectedResponse(response: response, chain: chain)
            }
            // A redirect changes the resource: conditional headers of the first URL do not apply.
            current = FetchRequest(url: location, method: request.method, headers: request.headers)
            target = next
        }
    }
}
