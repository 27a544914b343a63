import Foundation
import Logging

/// A small pool of headless browsers that pages are rendered in, at most ``concurrency`` at once.
///
/// Browsers are started on demand, so a crawl that renders nothing starts none. A browser is replaced before
/// its next page when its process has exited (a crash, a kill), when its processes together hold more than
/// ``memoryCap`` bytes of resident memory, or when a render failed in a way that leaves the browser in doubt
/// (its pipe closed, or it did not settle within the budget and then did not answer a ping). ``shutdown()``
/// kills every browser's process group and waits for them, so no `chromium` outlives the pool's owner.
package actor RenderPool {
    /// Renders in flight at most.
    package nonisolated let concurrency: Int
    /// The resident memory a browser's processes may hold together before it is replaced.
    package nonisolated let memoryCap: Int
    private let executable: String?
    private let logger: Logger
    /// Idle browsers; a render takes one, or starts one when none is idle.
    private var idle: [BrowserProcess] = []
    /// Renders running.
    private var running = 0
    /// Renders waiting for a turn, first come first served.
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Browsers started, and replaced, over the pool's life.
    private(set) var launched = 0
    private(set) var replaced = 0
    private var isShutDown = false
    /// Every browser the pool holds, idle or rendering.
    private var all: [ObjectIdentifier: BrowserProcess] = [:]

    /// - Parameters:
    ///   - concurrency: renders at once (`--render-concurrency`), at least 1.
    ///   - memoryCap: bytes of resident memory per browser (its whole process group) before it is replaced.
    ///   - executable: the browser; `nil` finds `chromium` on `PATH`.
    package init(concurrency: Int = 2, memoryCap: Int = 1 << 30, executable: String? = nil, logger: Logger) {
        self.concurrency = max(1, concurrency)
        self.memoryCap = max(64 << 20, memoryCap)
        self.executable = executable
        self.logger = logger
    }

    /// How many browsers were started, and how many of those replaced one that died or grew too large.
    package var browserCounts: (launched: Int, replaced: Int) { (launched, replaced) }

    /// Renders `url` in one of the pool's browsers once one is free (see ``BrowserProcess/render(_:limits:answer:)``).
    /// - Throws: ``RenderError``; ``RenderError/unavailable(_:)`` when no browser could be started, or the pool
    ///   was shut down.
    package func render(
        _ url: String, limits: RenderLimits,
        answer: @escaping @Sendable (SubresourceRequest) async -> SubresourceAnswer
    ) async throws(RenderError) -> RenderedPage {
        await takeTurn()
        defer { endTurn() }
        let browser = try await browserForNextPage()
        do {
            let page = try await browser.render(url, limits: limits, answer: answer)
            giveBack(browser)
            return page
        } catch {
            if await Self.isUsable(browser, after: error) {
                giveBack(browser)
            } else {
                retire(browser, reason: "\(error)")
            }
            throw error
        }
    }

    /// Kills every browser and waits until none of their processes is left. Renders asked for afterwards fail.
    package func shutdown() async {
        isShutDown = true
        let browsers = Array(all.values)
        all = [:]
        idle = []
        for browser in browsers { browser.terminate() }
        for browser in browsers { await browser.waitForExit() }
        for waiter in waiting { waiter.resume() }
        waiting = []
    }

    private func takeTurn() async {
        guard running >= concurrency else {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
        // The turn was handed over by `endTurn`, which kept `running` as it was.
    }

    private func endTurn() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// An idle browser that is alive and within its memory cap, or a new one.
    private func browserForNextPage() async throws(RenderError) -> BrowserProcess {
        guard !isShutDown else { throw .unavailable("the renderer was shut down") }
        while let browser = idle.popLast() {
            if browser.hasExited {
                retire(browser, reason: "the browser exited")
                continue
            }
            let resident = browser.residentBytes()
            if resident > memoryCap {
                retire(browser, reason: "the browser holds \(resident >> 20) MiB, past its \(memoryCap >> 20) MiB cap")
                continue
            }
            return browser
        }
        do {
            let browser = try await BrowserProcess.launch(executable: executable, logger: logger)
            guard !isShutDown else {
                browser.terminate()
                throw RenderError.unavailable("the renderer was shut down")
            }
            launched += 1
            all[ObjectIdentifier(browser)] = browser
            return browser
        } catch let error as RenderError {
            throw error
        } catch {
            throw .unavailable("\(error)")
        }
    }

    private func giveBack(_ browser: BrowserProcess) {
        guard !isShutDown, all[ObjectIdentifier(browser)] != nil else { return }
        idle.append(browser)
    }

    private func retire(_ browser: BrowserProcess, reason: String) {
        guard all.removeValue(forKey: ObjectIdentifier(browser)) != nil else { return }
        replaced += 1
        logger.info("replacing a browser", metadata: ["pid": "\(browser.pid)", "reason": "\(reason)"])
        browser.terminate()
        Task { await browser.waitForExit() }
    }

    /// Whether a browser whose render failed with `error` can render the next page: its page's failure was
    /// the page's own (too many requests or bytes, a navigation away, a window opened, a crashed renderer
    /// process, which the browser outlives), or, after a budget ran out, it still answers at once. A browser past
    /// its memory cap is replaced.
    private static func isUsable(_ browser: BrowserProcess, after error: RenderError) async -> Bool {
        guard !browser.hasExited else { return false }
        switch error {
        case .tooManyRequests, .tooManyBytes, .navigatedAway, .openedWindow, .crashed:
            return true
        case .timeBudgetExceeded, .browser:
            return (try? await browser.connection.send("Browser.getVersion", timeout: .seconds(2))) != nil
        case .tooMuchMemory, .unavailable:
            return false
        }
    }
}
