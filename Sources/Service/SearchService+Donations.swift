import Donations
import Foundation
import Hummingbird
import Index
import NIOCore
import Store

/// `POST /api/donations` (SPEC §6): JSON Lines as `import` reads them, from an app holding a token.
extension SearchService {
    /// 401 without a valid token; 413 over the body limit (refused from `Content-Length` before the body is
    /// read, else when the limit is passed); 503 with `Retry-After`, before the body is read, when the
    /// imports under way hold the donation memory budget (``DonationGate``); 403, writing nothing, when any
    /// line names a bundle the token is not for (a line refused for another reason too); else 200
    /// `{"read","imported","rejected":[{"line","reason"}]}` with bad lines reported as `import` reports them.
    ///
    /// A refusal closes the connection (`Connection: close`): what is left of its body is not read.
    func donate(_ request: Request, publisher: PublishLoop, gate: DonationGate) async throws -> Response {
        do {
            return try await acceptDonation(request, publisher: publisher, gate: gate)
        } catch var refusal as ServiceError where refusal.status != .badRequest {
            refusal.headers[.connection] = "close"
            throw refusal
        }
    }

    private func acceptDonation(_ request: Request, publisher: PublishLoop, gate: DonationGate) async throws
        -> Response
    {
        let token = try await authorizedToken(request)
        let limit = configuration.maxDonationBytes
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit {
            throw ServiceError(.contentTooLarge, "the body is larger than \(limit) bytes")
        }
        let reserved = try gate.reserve(declared ?? limit)
        // Released once the body and its records are freed (they live in `importBody`), so a burst's end
        // can give their memory back.
        defer { gate.release(reserved) }
        let (summary, rejected) = try await importBody(
            request, declared: declared, token: token, gate: gate, publisher: publisher)
        let object: [String: Any] = [
            "read": summary.records + summary.rejected, "imported": summary.records,
            "rejected": rejected.map { ["line": $0.line, "reason": $0.reason] },
        ]
        return .json(
            String(
                decoding: try JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self))
    }

    /// Reads the body, then in an import turn parses and checks it on the gate's threads and imports it;
    /// returns the summary and the rejected lines to list.
    private func importBody(
        _ request: Request, declared: Int?, token: StoredAPIToken, gate: DonationGate, publisher: PublishLoop
    ) async throws -> (ImportSummary, [DonationIssue]) {
        let limit = configuration.maxDonationBytes
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ServiceError(.contentTooLarge, "the body is larger than \(limit) bytes")
        } catch {
            // The connection ended, or the body came too slowly (answered 408 already): nothing to import.
            logger.debug("donation body not received whole", metadata: ["reason": "\(error)"])
            throw ServiceError(.badRequest, "the body did not arrive whole")
        }
        if let declared, body.readableBytes != declared {
            throw ServiceError(.badRequest, "the body ended before its Content-Length")
        }
        return try await gate.withTurn {
            let donation = try await gate.threads.runIfActive {
                try DonationBody(body, allowedBundles: Set(token.bundles))
            }
            if let foreign = donation.foreignBundle {
                throw ServiceError(
                    .forbidden,
                    "a line names the bundle \(foreign), which this token may not donate for; nothing was imported")
            }
            let summary: ImportSummary
            do {
                summary = try await DonationImporter(store: index, logger: logger)
                    .importRecords(donation.records, rejected: donation.rejected)
            } catch {
                // Batches before the failure may have committed: they are published with the next round.
                await publisher.noteChange()
                logger.error("donation import failed", metadata: ["reason": "\(error)"])
                throw ServiceError(.serviceUnavailable, "the store cannot be written")
            }
            metrics.donationsImported.increment(by: summary.records)
            metrics.donationsRejected.increment(by: summary.rejected)
            if summary.records > 0 { await publisher.noteChange() }
            return (summary, Array(donation.rejected.prefix(ImportSummary.listedIssues)))
        }
    }

    /// The valid token of the request's `Authorization: Bearer …`, else a 401 that asks for one.
    private func authorizedToken(_ request: Request) async throws -> StoredAPIToken {
        var refusal = ServiceError(.unauthorized, "a valid token is required: Authorization: Bearer TOKEN")
        refusal.headers[.wwwAuthenticate] = "Bearer realm=\"searchlight\""
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw refusal
        }
        let presented = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let token: StoredAPIToken?
        do {
            token = try await DonationTokens.verify(presented, in: index)
        } catch {
            logger.error("token check failed", metadata: ["reason": "\(error)"])
            throw ServiceError(.serviceUnavailable, "the store cannot be read")
        }
        guard let token else { throw refusal }
        return token
    }
}
