import Store

/// A host's request slots and the URLs taken for it, held so that no worker ever waits on another for good.
///
/// Two rules keep every pass moving whatever the number of workers, hosts, slots and URLs per claim:
/// - A worker takes a host's URLs only while it holds one of the host's slots, idle or in use by a request
///   that ends soon (``reserveSlot(of:now:)`` when it holds none), and gives them back unfetched when it no
///   longer holds any (``giveBackURLs(of:)``): URLs never wait in a worker that cannot send them.
/// - A worker gives a slot back as soon as it has nothing to send through it: no URL of the host in its
///   buffer and none known due (``releaseIdleSlots(of:)``), so a slot never waits in a worker with nothing
///   to do while another holds the host's URLs.
/// Every slot is so held by a worker with URLs to send, and every URL taken by a worker with a slot: each
/// held slot carries a request soon, and a free slot goes to whichever worker asks.
extension CrawlLoop {
    /// Asks the store for one of `origin`'s slots before taking the host's URLs. The host's next request
    /// time is not moved on (no request starts yet: the slot's first request asks again when the host has
    /// a delay). Returns whether the slot was granted; if not, the host waits as the store said.
    mutating func reserveSlot(of origin: String, now: Double) async throws -> Bool {
        let claim = try await store.claimHostSlot(
            host: origin, run: run.id, worker: worker, now: now, slots: configuration.perHostConcurrency,
            spacing: 0, leaseUntil: now + configuration.leaseDuration, reusing: nil)
        guard var host = hosts[origin] else { return false }
        host.slotsCheckedAt = now
        defer { hosts[origin] = host }
        switch claim {
        case .granted(let slot):
            if !host.heldSlots.contains(slot) { host.heldSlots.append(slot) }
            return true
        case .wait(let until):
            host.nextRequestAt = max(host.nextRequestAt, until)
            return false
        case .full(let until):
            host.slotsFullUntil = until
            return false
        }
    }

    /// Records that this worker uses slot `slot` of `origin` (in place of `reusing`, when the store gave
    /// another one: that one's lease had run out).
    mutating func takeSlot(_ slot: Int, of origin: String, reusing: Int?) {
        guard var host = hosts[origin] else { return }
        if let reusing, reusing != slot { host.heldSlots.removeAll { $0 == reusing } }
        if !host.heldSlots.contains(slot) { host.heldSlots.append(slot) }
        host.busySlots += 1
        hosts[origin] = host
    }

    /// Records that the store refused the slot this worker meant to use again (`idle`: given back beyond
    /// its share, or taken over once its lease ran out). With no slot of the host left, its URLs go back.
    mutating func loseSlot(_ idle: Int?, of origin: String) {
        guard var host = hosts[origin] else { return }
        if let idle { host.heldSlots.removeAll { $0 == idle } }
        hosts[origin] = host
        if host.heldSlots.isEmpty { giveBackURLs(of: origin) }
    }

    /// Gives back the slots of `origin` this worker holds and no request uses (in the next commit).
    mutating func releaseIdleSlots(of origin: String) {
        guard var host = hosts[origin] else { return }
        while host.heldSlots.count > host.busySlots {
            batch.releasedHostLeases.append(.slot(host.heldSlots.removeLast(), of: origin))
        }
        hosts[origin] = host
    }

    /// Gives back `origin`'s idle slots when the worker has nothing to send through them: its buffer is
    /// empty and nothing of the host is known due before `now`.
    mutating func releaseSlotsWithoutWork(of origin: String, now: Double) {
        guard let host = hosts[origin], host.idleSlot != nil, host.buffer.isEmpty, host.deferredSitemaps.isEmpty,
            host.dueAt > now
        else { return }
        releaseIdleSlots(of: origin)
    }

    /// Gives back the URLs of `origin` this worker took and has not dispatched (in the next commit, which
    /// ends their leases): they are due for any worker again, this one included once it holds a slot.
    mutating func giveBackURLs(of origin: String) {
        guard var host = hosts[origin], !host.buffer.isEmpty else { return }
        batch.releasedURLs.append(contentsOf: host.buffer.map(\.id))
        host.buffer.removeAll()
        host.dueAt = 0
        hosts[origin] = host
    }
}
