/// Which of a host's request slots a worker may use — the rule both engines apply inside the transaction
/// that reads and writes the host's slot leases, so the per-host cap holds across all workers.
///
/// A worker may hold at most its share of the slots: the slots divided among the pass's live workers,
/// rounded up, so one worker does not keep a host to itself while the others wait. A slot it holds and
/// means to use again is kept within that share and given back beyond it (workers joined since it took
/// it); otherwise the lowest free slot (never taken, released, or its lease ran out) is taken.
struct HostSlotRule {
    /// A slot lease as stored: who holds it, until when.
    struct Holder {
        var owner: String
        var until: Double
    }

    /// What the worker does.
    enum Decision: Equatable {
        /// Use `slot`, which it holds already or which is free: its lease is (re)written.
        case use(slot: Int)
        /// Give `slot` back (delete its lease) and wait.
        case giveBack(slot: Int)
        /// Every slot is taken, or the share is reached: wait.
        case full
    }

    /// The host's slot count (the per-host cap).
    var slots: Int
    /// The pass's live workers (seen within a lease), at least one.
    var liveWorkers: Int

    /// The share of the slots each worker may hold.
    var share: Int {
        let slots = max(1, slots)
        let live = max(1, liveWorkers)
        return max(1, (slots + live - 1) / live)
    }

    /// The decision for `owner` at `now`, given the slots' current holders and the slot it means to reuse.
    func decide(taken: [Int: Holder], owner: String, reusing: Int?, now: Double) -> Decision {
        let mine = taken.values.filter { $0.owner == owner && $0.until > now }.count
        if let reusing, taken[reusing]?.owner == owner {
            return mine <= share ? .use(slot: reusing) : .giveBack(slot: reusing)
        }
        guard mine < share else { return .full }
        let free = (0..<max(1, slots)).first { slot in
            guard let holder = taken[slot] else { return true }
            return holder.until <= now
        }
        return free.map { .use(slot: $0) } ?? .full
    }

    /// The slot number of a lease name `slot:N`.
    static func slot(named name: String) -> Int? {
        guard name.hasPrefix(prefix) else { return nil }
        return Int(name.dropFirst(prefix.count))
    }

    /// The lease name of slot `slot`.
    static func name(of slot: Int) -> String { prefix + String(slot) }

    static let prefix = "slot:"
}
