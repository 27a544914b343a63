import DequeModule

/// Decides which queued transfers may start: at most `globalLimit` at once and at most
/// `perHostLimit` per host key, with hosts served round-robin so one busy host cannot
/// starve the others.
///
/// Pure bookkeeping, owned by the curl thread; O(1) per start and finish.
struct TransferGate<Job> {
    let globalLimit: Int
    let perHostLimit: Int

    private var queues: [String: Deque<Job>] = [:]
    private var running: [String: Int] = [:]
    /// Hosts with queued jobs and a free slot, in the order they get their next turn.
    private var readyHosts = Deque<String>()
    private var readySet = Set<String>()
    private(set) var runningCount = 0
    private(set) var queuedCount = 0

    init(globalLimit: Int, perHostLimit: Int) {
        self.globalLimit = max(1, globalLimit)
        self.perHostLimit = max(1, perHostLimit)
    }

    /// The number of transfers running for `host`.
    func running(for host: String) -> Int { running[host, default: 0] }

    /// Queues a job for `host`.
    mutating func enqueue(_ job: Job, host: String) {
        queues[host, default: []].append(job)
        queuedCount += 1
        markReadyIfPossible(host)
    }

    /// Takes the next job that may start now and counts it as running.
    mutating func next() -> (job: Job, host: String)? {
        guard runningCount < globalLimit, let host = readyHosts.popFirst() else { return nil }
        readySet.remove(host)
        guard let job = queues[host]?.popFirst() else { return next() }
        if queues[host]?.isEmpty == true { queues[host] = nil }
        queuedCount -= 1
        running[host, default: 0] += 1
        runningCount += 1
        markReadyIfPossible(host)
        return (job, host)
    }

    /// Records that a running job for `host` has ended.
    mutating func finished(host: String) {
        guard let count = running[host], count > 0 else { return }
        running[host] = count == 1 ? nil : count - 1
        runningCount -= 1
        markReadyIfPossible(host)
    }

    /// Removes the first queued job for `host` that matches, returning it.
    mutating func removeQueued(host: String, where matches: (Job) -> Bool) -> Job? {
        guard var queue = queues[host], let index = queue.firstIndex(where: matches) else { return nil }
        let job = queue.remove(at: index)
        queues[host] = queue.isEmpty ? nil : queue
        queuedCount -= 1
        return job
    }

    /// Removes and returns every queued job.
    mutating func drainQueued() -> [Job] {
        let jobs = queues.values.flatMap { $0 }
        queues.removeAll()
        readyHosts.removeAll()
        readySet.removeAll()
        queuedCount = 0
        return jobs
    }

    private mutating func markReadyIfPossible(_ host: String) {
        guard queues[host]?.isEmpty == false, running[host, default: 0] < perHostLimit,
            !readySet.contains(host)
        else { return }
        readySet.insert(host)
        readyHosts.append(host)
    }
}
