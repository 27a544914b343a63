internal import CCurl
import Logging

extension CurlMultiLoop {
    /// The body of the loop thread.
    func run() {
        logger.debug("curl loop started", metadata: ["libcurl": "\(CurlRuntime.version)"])
        while true {
            let (commands, stopping) = inbox.withLock { box in
                defer {
                    box.commands.removeAll(keepingCapacity: true)
                    box.wakeupPending = false
                }
                return (box.commands, box.stopRequested)
            }
            for command in commands {
                switch command {
                case .start(let job): accept(job)
                case .cancel(let token, let hostKey): cancelTransfer(token, hostKey: hostKey)
                }
            }
            if stopping { break }
            startTransfers()
            var running: Int32 = 0
            let performCode = curl_multi_perform(multi, &running)
            if performCode != CURLM_OK {
                logger.error("curl_multi_perform failed", metadata: ["code": "\(performCode.rawValue)"])
            }
            collectFinished()
            startTransfers()
            // Returns on socket activity, libcurl's next timeout, or curl_multi_wakeup.
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        finishAll()
    }

    private func accept(_ job: FetchJob) {
        if job.token.isCancelled {
            job.complete(.failure(CancellationError()))
            return
        }
        gate.enqueue(job, host: job.target.hostKey)
    }

    private func cancelTransfer(_ token: TransferToken, hostKey: String) {
        if let handle = liveByToken[ObjectIdentifier(token)] {
            finish(handle, with: .failure(CancellationError()))
            logger.debug("cancelled a running transfer")
        } else if let job = gate.removeQueued(host: hostKey, where: { $0.token === token }) {
            job.complete(.failure(CancellationError()))
        }
        // Otherwise the job has finished already, or has not arrived and will see its token's flag.
    }

    /// Moves queued jobs onto the multi handle while the caps allow.
    private func startTransfers() {
        while let (job, host) = gate.next() {
            do {
                guard let easy = idleHandles.popLast() ?? CurlEasyHandle() else {
                    throw FetchError(kind: .other, url: job.request.url, message: "libcurl could not create a transfer")
                }
                let transfer = try CurlEasyTransfer(job: job, easy: easy, configuration: configuration)
                let code = curl_multi_add_handle(multi, transfer.handle)
                guard code == CURLM_OK else {
                    let message = String(cString: curl_multi_strerror(code))
                    throw FetchError(
                        kind: .other, url: job.request.url, message: "libcurl refused the transfer: \(message)")
                }
                live[transfer.handle] = transfer
                liveByToken[ObjectIdentifier(job.token)] = transfer.handle
            } catch {
                gate.finished(host: host)
                job.complete(.failure(error))
            }
        }
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            // The message is invalid after curl_multi_remove_handle: read it first.
            let code = message.pointee.data.result
            guard let transfer = live[handle] else { continue }
            finish(handle, with: transfer.result(for: code).mapError { $0 })
        }
    }

    /// Detaches a transfer from the multi handle, frees it and resumes its caller.
    private func finish(_ handle: UnsafeMutableRawPointer, with result: Result<FetchResponse, any Error>) {
        guard let transfer = live.removeValue(forKey: handle) else { return }
        liveByToken[ObjectIdentifier(transfer.job.token)] = nil
        curl_multi_remove_handle(multi, handle)
        transfer.easy.reset()
        if idleHandles.count < configuration.maxConcurrentTransfers { idleHandles.append(transfer.easy) }
        gate.finished(host: transfer.job.target.hostKey)
        transfer.job.complete(result)
        if case .failure(let error as FetchError) = result {
            logger.debug("fetch failed", metadata: ["url": "\(error.url)", "kind": "\(error.kind.rawValue)"])
        }
    }

    /// Fails everything still queued or running and marks the loop stopped.
    private func finishAll() {
        for handle in Array(live.keys) {
            let url = live[handle]?.job.request.url ?? ""
            finish(handle, with: .failure(FetchError(kind: .shutdown, url: url, message: "the fetcher was shut down")))
        }
        let leftovers = inbox.withLock { box in
            box.stopped = true
            defer { box.commands.removeAll() }
            return box.commands
        }
        var queued = gate.drainQueued()
        for case .start(let job) in leftovers { queued.append(job) }
        for job in queued {
            job.complete(
                .failure(FetchError(kind: .shutdown, url: job.request.url, message: "the fetcher was shut down")))
        }
        let waiters = inbox.withLock { box in
            defer { box.stopWaiters.removeAll() }
            return box.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
        logger.debug("curl loop stopped")
    }
}
