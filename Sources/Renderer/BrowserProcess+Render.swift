import Foundation
import StrictJSON

extension BrowserProcess {
    /// Renders `url` in a fresh browser context (no cookies, storage or cache shared with any other page),
    /// answering every request the page makes — its own document included — through `answer`. Images, media
    /// and fonts are refused without asking. The render ends at the load event plus ``RenderLimits/quietPeriod``
    /// without a request, and fails past the limits.
    /// - Throws: ``RenderError``.
    package func render(
        _ url: String, limits: RenderLimits = RenderLimits(),
        answer: @escaping @Sendable (SubresourceRequest) async -> SubresourceAnswer
    ) async throws(RenderError) -> RenderedPage {
        // Every command of the render waits at most until the budget's end; only disposing of the context
        // after a failure may take up to 5 s more.
        let deadline = RenderDeadline(budget: limits.timeBudget)
        let context: String
        do {
            let created = try await connection.send(
                "Target.createBrowserContext", [JSONMember("disposeOnDetach", .bool(true))],
                timeout: try deadline.remaining())
            context = created["browserContextId"]?.stringValue ?? ""
        } catch {
            if case DevToolsError.timedOut = error, deadline.isPast { throw .timeBudgetExceeded(limits.timeBudget) }
            throw Self.renderError(error)
        }
        do {
            let page = try await PageVisit.run(
                url, in: context, connection: connection, limits: limits, deadline: deadline,
                residentBytes: { [self] in residentBytes() }, answer: answer)
            _ = try? await connection.send(
                "Target.disposeBrowserContext", [JSONMember("browserContextId", .string(context))],
                timeout: .seconds(5))
            return page
        } catch {
            _ = try? await connection.send(
                "Target.disposeBrowserContext", [JSONMember("browserContextId", .string(context))],
                timeout: .seconds(5))
            // A command that timed out because the budget ran out is the budget's failure.
            if case DevToolsError.timedOut = error, deadline.isPast { throw .timeBudgetExceeded(limits.timeBudget) }
            throw Self.renderError(error)
        }
    }

    static func renderError(_ error: any Error) -> RenderError {
        if let error = error as? RenderError { return error }
        if let error = error as? DevToolsError { return .browser(error) }
        return .browser(.answer(code: 0, message: "\(error)"))
    }
}

/// The end of a render's time budget.
struct RenderDeadline: Sendable {
    let budget: Duration
    let end: ContinuousClock.Instant

    init(budget: Duration) {
        self.budget = budget
        end = ContinuousClock.now + budget
    }

    var isPast: Bool { ContinuousClock.now >= end }

    /// The time left; throws once none is.
    func remaining() throws(RenderError) -> Duration {
        let left = end - ContinuousClock.now
        guard left > .zero else { throw RenderError.timeBudgetExceeded(budget) }
        return left
    }
}
