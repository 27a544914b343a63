import Fetching
import Foundation
import Items
import Markup
import Renderer
import Robots
import Scope
import Synchronization

/// Decides whether a fetched HTML page is rendered (``RenderRule``), renders it in the pool's browsers with
/// every request answered by the ``SubresourceGateway``, and extracts from the rendered DOM.
///
/// The page's own document is answered with the response the crawl already has, so rendering never fetches
/// the page twice.
package final class PageRenderer: Sendable {
    /// What became of one page.
    package struct Outcome: Sendable {
        /// The decision; `nil` with ``RenderMode/never``.
        package var decision: RenderDecision?
        /// The markup and item to store: the rendered page's when ``decision`` is ``RenderDecision/rendered``,
        /// else the served page's.
        package var markup: PageMarkup
        package var item: SearchableItem
        /// The served page's, whatever the decision.
        package var servedMarkup: PageMarkup
        package var servedItem: SearchableItem
        /// Why the render failed, with ``RenderDecision/failed``.
        package var error: RenderError?
        /// The requests the render made, each with its refusal if it was refused.
        package var requests: [RenderedPage.Request] = []
        /// For ``RenderDecision/scriptsDisallowed``: the scripts robots.txt refuses, with the reason.
        package var disallowedScripts: [(url: String, reason: String)] = []
        /// The requests the render made, by ``SubresourceGateway/Provenance``.
        package var subresources: [String: Int] = [:]

        package var isRendered: Bool { decision == .rendered }
    }

    package let mode: RenderMode
    package let pool: RenderPool
    package let gateway: SubresourceGateway
    package let limits: RenderLimits

    package init(mode: RenderMode, pool: RenderPool, gateway: SubresourceGateway, limits: RenderLimits) {
        self.mode = mode
        self.pool = pool
        self.gateway = gateway
        self.limits = limits
    }

    /// Extracts `response` (a 2xx HTML page), rendering it when the mode and the rule say so.
    /// - Parameters:
    ///   - robots: the page's host's robots.txt status, when the caller has read it.
    ///   - force: render whatever the mode says (`validate --render`), also when robots.txt disallows one of
    ///     the page's scripts (that script is then refused, and named).
    package func process(_ response: FetchResponse, robots: RobotsStatus?, force: Bool = false) async -> Outcome {
        let headers = response.headers.map { (name: $0.name, value: $0.value) }
        let served = PageExtraction.item(bytes: response.body, url: response.url, headers: headers)
        var outcome = Outcome(
            decision: nil, markup: served.page, item: served.item, servedMarkup: served.page, servedItem: served.item)
        if let robots, let origin = try? CrawlURL(response.url).hostKey {
            await gateway.learnRobots(robots, of: origin)
        }
        if !force {
            switch mode {
            case .never: return outcome
            case .auto:
                if let reason = RenderRule.reasonNotToRender(markup: served.page, item: served.item) {
                    outcome.decision = reason
                    return outcome
                }
            case .always: break
            }
        }
        for source in served.page.scripts.sources {
            if let reason = await gateway.robotsRefusal(of: source) {
                outcome.disallowedScripts.append((source, reason))
            }
        }
        if !outcome.disallowedScripts.isEmpty, !force {
            outcome.decision = .scriptsDisallowed
            return outcome
        }
        let tally = Mutex<[String: Int]>([:])
        let document = Mutex(false)
        let gateway = gateway
        let servedAnswer = SubresourceAnswer.response(
            status: response.status, headers: SubresourceGateway.browserHeaders(response.headers), body: response.body)
        do {
            let page = try await pool.render(response.url, limits: limits) { request in
                // The first document asked for is the navigation this render started: the page as fetched.
                if request.resourceType == "Document",
                    document.withLock({ answered in
                        defer { answered = true }
                        return !answered
                    })
                {
                    return servedAnswer
                }
                let (answer, provenance) = await gateway.answer(request)
                tally.withLock { $0[provenance.rawValue, default: 0] += 1 }
                return answer
            }
            var renderedHeaders = [(name: "Content-Type", value: "text/html; charset=utf-8")]
            renderedHeaders += headers.filter { $0.name.lowercased() == "x-robots-tag" }
            let rendered = PageExtraction.item(
                bytes: Array(page.html.utf8), url: response.url, headers: renderedHeaders)
            outcome.markup = rendered.page
            outcome.item = rendered.item
            outcome.requests = page.requests
            outcome.decision = .rendered
        } catch {
            outcome.error = error
            outcome.decision = .failed
        }
        let counted = tally.withLock { $0 }
        // Requests refused by type (images, media, fonts) never reach the gateway.
        let refusedByType = outcome.requests.filter { $0.request.isRefusedByType }.count
        outcome.subresources = counted.merging(
            refusedByType > 0 ? ["refused": refusedByType] : [:], uniquingKeysWith: +)
        return outcome
    }
}
