#if canImport(Glibc)
    import Glibc
#endif

/// The time some work takes against its twin: work of the same size without what a test is about (the same
/// bytes to parse with nothing to read, a pattern of one star for one of thousands). A test bounds the
/// ratio, never the time alone, so a slow or busy machine moves both sides and the bound holds; quadratic
/// work on a large input misses a generous ratio by orders of magnitude.
package struct TwinTiming: Sendable, CustomStringConvertible {
    /// The best time of the work.
    package var time: Duration
    /// The best time of the twin.
    package var twinTime: Duration

    /// Whether the work took at most `factor` times as long as its twin.
    package func isWithin(_ factor: Int) -> Bool {
        time <= twinTime * factor
    }

    /// Both times, for a failed expectation.
    package var description: String { "\(time) against \(twinTime) for the twin" }

    /// The best of up to five runs of each, taken in turns. Times are the CPU time of the calling thread (the
    /// work runs on it, synchronously), so a machine busy with other work does not stretch either side; the
    /// turns and the best-of keep caches and frequency changes from favouring one. Stops early once the work
    /// is within `factor` of its twin, or after a run so far past it (ten times the factor) that another
    /// would not help: a test of slow work fails after one run of it.
    package static func measure(within factor: Int, _ work: () -> Void, twin: () -> Void) -> TwinTiming {
        var result = TwinTiming(time: .seconds(1_000_000), twinTime: .seconds(1_000_000))
        for _ in 0..<5 {
            result.twinTime = min(result.twinTime, threadCPUTime(of: twin))
            let time = threadCPUTime(of: work)
            result.time = min(result.time, time)
            if result.isWithin(factor) || time > result.twinTime * (10 * factor) { break }
        }
        return result
    }

    /// The CPU time the calling thread spends in `work`.
    static func threadCPUTime(of work: () -> Void) -> Duration {
        func now() -> Duration {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        }
        let start = now()
        work()
        return now() - start
    }
}
