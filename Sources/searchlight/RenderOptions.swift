import ArgumentParser
import Crawler
import Renderer

extension RenderMode: ExpressibleByArgument {}

/// How `crawl` renders pages in headless Chromium (SPEC §3, "Rendering").
struct RenderOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Render pages in headless Chromium before extraction: never, auto (pages whose served HTML lacks a "
                + "title, a description or structured data but has scripts, or has an empty application root; "
                + "Docs/markup.md) or always.", valueName: "mode"))
    var render = RenderMode.auto

    @Option(help: "Pages rendered at once, each in a browser process of its own.")
    var renderConcurrency = 2

    @Option(
        help: ArgumentHelp(
            "Seconds one render may take, from navigation to the serialized page.", valueName: "seconds"))
    var renderTimeout = 15.0

    func validate() throws {
        guard (1...16).contains(renderConcurrency) else {
            throw ValidationError("--render-concurrency must be between 1 and 16.")
        }
        guard (1...300).contains(renderTimeout) else {
            throw ValidationError("--render-timeout must be between 1 and 300 seconds.")
        }
    }

    /// The limits of one render.
    var limits: RenderLimits {
        var limits = RenderLimits()
        limits.timeBudget = .milliseconds(Int(renderTimeout * 1000))
        return limits
    }
}
