import Foundation
import StrictJSON

/// A request the page's browser made, as Searchlight is asked to answer it.
package struct SubresourceRequest: Sendable, Hashable {
    /// The URL, as the browser resolved it.
    package var url: String
    /// `GET`, `POST`, …
    package var method: String
    /// The DevTools resource type: `Document`, `Script`, `Stylesheet`, `XHR`, `Fetch`, `Image`, …
    package var resourceType: String

    package init(url: String, method: String, resourceType: String) {
        self.url = url
        self.method = method
        self.resourceType = resourceType
    }

    /// Images, media and fonts: never needed for the DOM, refused unfetched.
    package var isRefusedByType: Bool { ["Image", "Media", "Font"].contains(resourceType) }
}

/// Searchlight's answer to a ``SubresourceRequest``.
package enum SubresourceAnswer: Sendable {
    /// A response: status, headers, body.
    case response(status: Int, headers: [(name: String, value: String)], body: [UInt8])
    /// No response; the browser sees a blocked request. `reason` is what `validate --render` names.
    case refused(reason: String)
}

/// How one render is bounded.
package struct RenderLimits: Sendable {
    /// The whole render, from navigation to the serialized DOM.
    package var timeBudget: Duration = .seconds(15)
    /// Requests the page may make, its own document included.
    package var maximumRequests = 200
    /// Bytes of responses the page may receive in all.
    package var maximumBytes = 16 << 20
    /// How long the network must stay idle after the load event.
    package var quietPeriod: Duration = .milliseconds(500)
    /// Resident memory the browser's processes may hold together while the page renders (checked every
    /// 100 ms); past it the page fails. Each renderer's JavaScript heap is also bounded at launch
    /// (``BrowserProcess/launch(executable:heapMegabytes:logger:)``), so a script that allocates without end
    /// is stopped by V8 before it can take the machine's memory.
    package var maximumResidentBytes = 1 << 30

    package init() {}
}

/// A rendered page: its DOM serialized, and every request the page made with what became of it.
package struct RenderedPage: Sendable {
    package struct Request: Sendable, Hashable {
        package var request: SubresourceRequest
        /// `nil` when answered with a response; else why it was refused.
        package var refusal: String?
    }

    /// `document.documentElement.outerHTML` once the page was quiet.
    package var html: String
    package var requests: [Request]
}

/// Why a render failed; the page is then indexed from its served HTML, or not at all.
package enum RenderError: Error, Sendable, CustomStringConvertible {
    /// A short kebab-case name for counters: `time-budget`, `too-many-requests`, `crashed`, …
    package var key: String {
        switch self {
        case .browser: "browser"
        case .timeBudgetExceeded: "time-budget"
        case .tooManyRequests: "too-many-requests"
        case .tooManyBytes: "too-many-bytes"
        case .tooMuchMemory: "memory"
        case .navigatedAway: "navigated-away"
        case .openedWindow: "opened-window"
        case .crashed: "crashed"
        case .unavailable: "unavailable"
        }
    }

    case browser(DevToolsError)
    case timeBudgetExceeded(Duration)
    case tooManyRequests(Int)
    case tooManyBytes(Int)
    /// The browser's processes held more resident memory than the limit, in bytes.
    case tooMuchMemory(Int)
    case navigatedAway(to: String)
    /// The page called `window.open`; the window is not opened.
    case openedWindow(String)
    case crashed
    /// No browser could be started, or the pool was shut down.
    case unavailable(String)

    package var description: String {
        switch self {
        case .browser(let error): "rendering failed: \(error)"
        case .timeBudgetExceeded(let budget): "the page did not settle within its \(budget) render budget"
        case .tooManyRequests(let limit): "the page made more than \(limit) requests"
        case .tooManyBytes(let limit): "the page's responses passed \(limit) bytes"
        case .tooMuchMemory(let limit): "the page's browser held more than \(limit >> 20) MiB of memory"
        case .navigatedAway(let url): "the page navigated away, to \(url)"
        case .openedWindow(let url): "the page tried to open a window\(url.isEmpty ? "" : ", for \(url)")"
        case .crashed: "the page's renderer crashed"
        case .unavailable(let reason): "no browser to render in: \(reason)"
        }
    }
}
