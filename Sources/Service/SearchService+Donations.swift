import Donations
import Foundation
import Hummingbird
import Index
import NIOCore
import Store

/// `POST /api/donations` (SPEC §6): JSON Lines as `import` reads them, from an app holding a token.
extension SearchService {
    /// 401 without a valid token; 413 over the body limit (refused from `Content-Length` before the body is
    /// read, else when the limit is passed); 403, writing nothing, when any line names a bundle the token
    /// is not for (a line refused for another reason too); else 200 `{"read","imported","rejected":[{"line","reason"}]}` with bad lines reported as
    /// `import` reports them.
    func donate(_ request: Request, publisher: PublishLoop) async throws -> Response {
        let token = try await authorizedToken(request)
        let limit = configuration.maxDonationBytes
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw ServiceError(.contentTooLarge, "the body is larger than \(limit) bytes")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ServiceError(.contentTooLarge, "the body is larger than \(limit) bytes")
        }
        var records: [DonationRecord] = []
        var rejected: [DonationIssue] = []
        var foreign: String?
        try DonationFile.forEachRecord(inBytes: Array(body.readableBytesView), named: "body") { result in
            switch result {
            case .success(let record):
                if foreign == nil, !token.bundles.contains(record.bundleIdentifier) {
                    foreign = record.bundleIdentifier
                }
                records.append(record)
            case .failure(let issue):
                // A line refused for another reason still may not name another bundle.
                if foreign == nil, let named = issue.bundleIdentifier, !token.bundles.contains(named) {
                    foreign = named
                }
                rejected.append(issue)
            }
        }
        if let foreign {
            throw ServiceError(
                .forbidden,
                "a line names the bundle \(foreign), which this token may not donate for; nothing was imported"
            )
        }
        let summary: ImportSummary
        do {
            summary = try await DonationImporter(store: index.donationStore, logger: logger)
                .importRecords(records, rejected: rejected)
        } catch {
            // Batches before the failure may have committed: they are published with the next round.
            await publisher.noteChange()
            logger.error("donation import failed", metadata: ["reason": "\(error)"])
            throw ServiceError(.serviceUnavailable, "the store cannot be written")
        }
        metrics.donationsImported.increment(by: summary.records)
        metrics.donationsRejected.increment(by: summary.rejected)
        if summary.records > 0 { await publisher.noteChange() }
        let object: [String: Any] = [
            "read": summary.records + summary.rejected, "imported": summary.records,
            "rejected": rejected.prefix(ImportSummary.listedIssues).map { ["line": $0.line, "reason": $0.reason] },
        ]
        return .json(
            String(
                decoding: try JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self))
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
