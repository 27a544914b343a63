import Synchronization

/// A request on its way to the curl thread, with the continuation that receives its result.
struct FetchJob: Sendable {
    let request: FetchRequest
    let target: CurlURL
    let token: TransferToken
    let continuation: CheckedContinuation<FetchResponse, any Error>

    /// Resumes the waiting caller; the loop calls this exactly once per job.
    func complete(_ result: Result<FetchResponse, any Error>) {
        continuation.resume(with: result)
    }
}

/// The identity of one fetch, shared by the caller (which may cancel it) and the loop.
///
/// The cancelled flag closes the race between a cancellation and the submission it
/// cancels: the flag is set before the cancel command is posted, and the loop checks it
/// when the job arrives, so a cancel that overtakes its job is never lost.
final class TransferToken: Sendable {
    private let cancelled = Mutex(false)

    var isCancelled: Bool { cancelled.withLock { $0 } }

    func cancel() {
        cancelled.withLock { $0 = true }
    }
}
