internal import CCurl
import Foundation
import Logging
import Synchronization

/// Drives libcurl's multi interface on one dedicated thread.
///
/// The loop is the one libcurl documents (https://curl.se/libcurl/c/libcurl-multi.html):
/// `curl_multi_perform`, then `curl_multi_info_read` for finished transfers, then
/// `curl_multi_poll`. Callers never touch the multi handle: they post commands to a
/// locked inbox and call `curl_multi_wakeup`, which libcurl allows from any thread
/// (https://curl.se/libcurl/c/curl_multi_wakeup.html).
///
/// `@unchecked Sendable`: everything outside `inbox` is used by the loop thread alone;
/// `inbox` is a `Mutex`, and `multi` is shared only for `curl_multi_wakeup`.
final class CurlMultiLoop: @unchecked Sendable {
    enum Command {
        case start(FetchJob)
        case cancel(TransferToken, hostKey: String)
    }

    struct Inbox {
        var commands: [Command] = []
        /// A `curl_multi_wakeup` is on its way and the loop has not drained the inbox since:
        /// more commands need no further wakeup (each one is a system call).
        var wakeupPending = false
        var stopRequested = false
        var stopped = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let multi: UnsafeMutableRawPointer
    let inbox = Mutex(Inbox())
    let configuration: FetchConfiguration
    let logger: Logger

    // Loop-thread state.
    var gate: TransferGate<FetchJob>
    var live: [UnsafeMutableRawPointer: CurlEasyTransfer] = [:]
    var liveByToken: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]
    /// Reset easy handles waiting for the next transfer, at most `maxConcurrentTransfers`.
    var idleHandles: [CurlEasyHandle] = []

    init(configuration: FetchConfiguration, logger: Logger) throws(FetchError) {
        CurlRuntime.ensureInitialized()
        guard let multi = curl_multi_init() else {
            throw FetchError(kind: .other, url: "", message: "libcurl could not create a multi handle")
        }
        self.multi = multi
        self.configuration = configuration
        self.logger = logger
        self.gate = TransferGate(
            globalLimit: configuration.maxConcurrentTransfers, perHostLimit: configuration.maxTransfersPerHost)
        // Belt and braces under the gate: libcurl itself never opens more per host.
        _ = sl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxTransfersPerHost)
        _ = sl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(16, configuration.maxConcurrentTransfers * 2))
    }

    deinit {
        curl_multi_cleanup(multi)
    }

    /// Starts the loop thread. Call once.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "searchlight.curl"
        thread.start()
    }

    /// Hands a job to the loop; after shutdown the job fails at once.
    func submit(_ job: FetchJob) {
        let (accepted, wake) = inbox.withLock { box in
            guard !box.stopRequested else { return (false, false) }
            box.commands.append(.start(job))
            defer { box.wakeupPending = true }
            return (true, !box.wakeupPending)
        }
        guard accepted else {
            job.complete(
                .failure(FetchError(kind: .shutdown, url: job.request.url, message: "the fetcher was shut down")))
            return
        }
        if wake { curl_multi_wakeup(multi) }
    }

    /// Asks the loop to cancel the transfer of `token`, queued or running.
    func cancel(_ token: TransferToken, hostKey: String) {
        let wake = inbox.withLock { box in
            box.commands.append(.cancel(token, hostKey: hostKey))
            defer { box.wakeupPending = true }
            return !box.wakeupPending
        }
        if wake { curl_multi_wakeup(multi) }
    }

    /// Asks the loop to stop without waiting: pending and running transfers fail with `.shutdown`.
    func requestStop() {
        let wake = inbox.withLock { box in
            defer { box.stopRequested = true }
            return !box.stopRequested
        }
        if wake { curl_multi_wakeup(multi) }
    }

    /// Stops the loop and waits until its thread has finished every transfer.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = inbox.withLock { box in
                box.stopRequested = true
                if box.stopped { return true }
                box.stopWaiters.append(continuation)
                return false
            }
            if finished { continuation.resume() } else { curl_multi_wakeup(multi) }
        }
    }
}
