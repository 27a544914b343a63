import Foundation

/// A one-line progress display on standard error, redrawn in place at most ten times a
/// second, and only when standard error is a terminal (never in pipes, logs or CI).
struct ProgressLine {
    private let total: Int
    private let enabled: Bool
    private let started = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?

    /// - Parameter sharesTerminal: whether results are printed to the same terminal, where
    ///   a redrawn line would tangle with them.
    init(total: Int, sharesTerminal: Bool) {
        self.total = total
        self.enabled = total > 1 && isatty(STDERR_FILENO) == 1 && !sharesTerminal
    }

    /// Redraws the line if enough time has passed since the last redraw.
    mutating func update(done: Int, failed: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        if let lastDrawn, now - lastDrawn < .milliseconds(100), done < total { return }
        lastDrawn = now
        let rate = Double(done) / max((now - started).seconds, 1e-3)
        let text = String(format: "\r%d/%d fetched, %d failed, %.0f/s", done, total, failed, rate)
        FileHandle.standardError.write(Data((text + "\u{1B}[K").utf8))
    }

    /// Clears the line so the summary starts on a clean line.
    func finish() {
        guard enabled, lastDrawn != nil else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
