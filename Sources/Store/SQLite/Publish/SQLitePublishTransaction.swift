import Foundation
import GRDB

/// The publisher's write transaction on a SQLite store (``PublishTransaction``). SQLite's transaction belongs
/// to the connection and the thread that began it, so a thread of its own holds it
/// (``SQLiteStore/publishTransaction(expectingItems:threshold:_:)``) and runs the driver's calls there, one at
/// a time and in the order they came, through a ``SQLitePublishWriter``. The content of a chunk is read on
/// the store's reader connections instead, beside the writes: a read transaction begun while this one holds
/// the write lock sees what this one sees, since nothing a publish writes is read there.
///
/// All state is behind one `NSCondition`, which is what makes the `@unchecked Sendable` sound.
final class SQLitePublishTransaction: PublishTransaction, @unchecked Sendable {
    /// A call waiting for the writer thread: `run` with the writer, or `fail` when the transaction is over.
    private struct Call {
        var run: (SQLitePublishWriter) -> Void
        var fail: (any Error) -> Void
    }

    /// The transaction was told to roll back.
    private struct RolledBack: Error {}

    let store: SQLiteStore
    private let condition = NSCondition()
    private var calls: [Call] = []
    /// How the driver ended: `true` commits, `false` rolls back.
    private var ending: Bool?
    /// Why calls can no longer run: the writer thread ended (committed, rolled back or failed).
    private var closed: (any Error)?
    /// The writer thread's outcome, once it ended, and who waits for it.
    private var outcome: Result<Void, any Error>?
    private var awaitingOutcome: CheckedContinuation<Void, any Error>?

    private init(store: SQLiteStore) {
        self.store = store
    }

    var writesFullText: Bool { true }

    /// Runs `body` with a new transaction on `store`'s writer connection, for a publish of `itemCount` items:
    /// commits when `body` returns, rolls back when it throws.
    static func run<T: Sendable>(
        on store: SQLiteStore, expectingItems itemCount: Int, _ body: (SQLitePublishTransaction) async throws -> T
    ) async throws -> T {
        let transaction = SQLitePublishTransaction(store: store)
        let thread = Thread {
            let result = Result {
                try store.publishTransaction(expectingItems: itemCount) { db, wordIndexFile in
                    try transaction.serve(SQLitePublishWriter(db, wordIndexFile: wordIndexFile))
                }
            }
            transaction.writerEnded(result)
        }
        thread.name = "searchlight-publish-writer"
        thread.start()
        let value: T
        do {
            value = try await body(transaction)
        } catch {
            transaction.end(commit: false)
            _ = try? await transaction.writerOutcome()
            throw error
        }
        transaction.end(commit: true)
        try await transaction.writerOutcome()
        return value
    }

    /// Runs `operation` on the writer thread and returns its result.
    func perform<T: Sendable>(_ operation: @escaping @Sendable (SQLitePublishWriter) throws -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let call = Call(
                run: { writer in continuation.resume(with: Result { try operation(writer) }) },
                fail: { continuation.resume(throwing: $0) })
            condition.lock()
            defer { condition.unlock() }
            if let closed {
                call.fail(closed)
            } else {
                calls.append(call)
                condition.broadcast()
            }
        }
    }

    /// The writer thread's loop inside the transaction: runs the calls until the driver ends, then returns
    /// (commit) or throws (roll back).
    private func serve(_ writer: SQLitePublishWriter) throws {
        while true {
            condition.lock()
            while calls.isEmpty, ending == nil { condition.wait() }
            if !calls.isEmpty {
                let call = calls.removeFirst()
                condition.unlock()
                call.run(writer)
                continue
            }
            let commit = ending == true
            condition.unlock()
            if commit { return }
            throw RolledBack()
        }
    }

    /// The driver is done: the writer commits (`commit`) or rolls back once the calls before are done.
    private func end(commit: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if ending == nil { ending = commit }
        condition.broadcast()
    }

    /// The writer thread ended with `result`: calls still waiting, and any made later, fail.
    private func writerEnded(_ result: Result<Void, any Error>) {
        condition.lock()
        defer { condition.unlock() }
        let reason: any Error
        switch result {
        case .success: reason = StoreError(path: store.path, message: "the publish transaction has ended")
        case .failure(let error): reason = error
        }
        closed = reason
        for call in calls { call.fail(reason) }
        calls.removeAll()
        outcome = result
        if let awaitingOutcome {
            awaitingOutcome.resume(with: result)
            self.awaitingOutcome = nil
        }
    }

    /// Waits for the writer thread to end; throws what ended its transaction, unless the driver asked for it.
    private func writerOutcome() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            condition.lock()
            defer { condition.unlock() }
            if let outcome {
                continuation.resume(with: outcome)
            } else {
                awaitingOutcome = continuation
            }
        }
    }
}
