import Fetching
import Foundation

/// What fetching one URL produced: a response with its redirect chain, or an error.
struct FetchOutcome: Sendable {
    var url: String
    var result: RedirectedResponse?
    var error: FetchError?

    static func fetch(_ request: FetchRequest, using fetcher: Fetcher, maxRedirects: Int) async -> FetchOutcome {
        do {
            let result: RedirectedResponse
            if maxRedirects == 0 {
                let response = try await fetcher.fetch(request)
                result = RedirectedResponse(
                    response: response,
                    chain: [RedirectHop(url: request.url, status: response.status, location: response.location)])
            } else {
                result = try await fetcher.fetchFollowingRedirects(request, maxHops: maxRedirects)
            }
            return FetchOutcome(url: request.url, result: result)
        } catch let error as FetchError {
            return FetchOutcome(url: request.url, error: error)
        } catch {
            return FetchOutcome(
                url: request.url, error: FetchError(kind: .other, url: request.url, message: "\(error)"))
        }
    }
}

/// Totals for the summary line of a bulk fetch.
struct FetchSummary {
    var succeeded = 0
    var failed = 0
    var bytes = 0
    var failuresByKind: [String: Int] = [:]

    mutating func add(_ outcome: FetchOutcome) {
        if let response = outcome.result?.response {
            succeeded += 1
            bytes += response.body.count
        } else {
            failed += 1
            failuresByKind[outcome.error?.kind.rawValue ?? "other", default: 0] += 1
        }
    }

    func line(elapsed: Duration) -> String {
        let seconds = max(elapsed.seconds, 1e-9)
        let rate = Double(succeeded + failed) / seconds
        var text = "fetched \(succeeded + failed) URLs in \(String(format: "%.2f", seconds)) s "
        text += "(\(String(format: "%.0f", rate))/s): \(succeeded) responses, \(failed) failed, \(bytes) body bytes"
        if !failuresByKind.isEmpty {
            text +=
                "; failures: "
                + failuresByKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        return text
    }
}

/// The JSON shape of one fetch (`searchlight fetch --json`).
struct FetchReport: Encodable {
    struct Header: Encodable { var name: String, value: String }
    struct Timings: Encodable { var nameLookup, connect, tlsHandshake, firstByte, total: Double }
    struct Hop: Encodable { var url: String, status: Int, location: String? }
    struct Failure: Encodable { var kind: String, message: String, curlCode: Int32? }

    var url: String
    var finalURL: String?
    var status: Int?
    var httpVersion: String?
    var contentType: String?
    var headers: [Header]?
    var bodyBytes: Int?
    var wireBytes: Int?
    var remoteAddress: String?
    var remotePort: Int?
    var timings: Timings?
    var redirects: [Hop]
    var error: Failure?

    init(_ outcome: FetchOutcome) {
        url = outcome.url
        redirects = outcome.result?.chain.map { Hop(url: $0.url, status: $0.status, location: $0.location) } ?? []
        if let error = outcome.error {
            self.error = Failure(kind: error.kind.rawValue, message: error.message, curlCode: error.curlCode?.rawValue)
        }
        guard let result = outcome.result else { return }
        let response = result.response
        finalURL = result.finalURL
        status = response.status
        httpVersion = response.httpVersion
        contentType = response.contentType
        headers = response.headers.map { Header(name: $0.name, value: $0.value) }
        bodyBytes = response.body.count
        wireBytes = response.wireBodyBytes
        remoteAddress = response.remoteAddress
        remotePort = response.remotePort
        let t = response.timings
        timings = Timings(
            nameLookup: t.nameLookup.seconds, connect: t.connect.seconds, tlsHandshake: t.tlsHandshake.seconds,
            firstByte: t.firstByte.seconds, total: t.total.seconds)
    }
}

/// Prints outcomes as text or JSON Lines.
struct FetchPrinter: Sendable {
    var json: Bool
    var quiet: Bool
    /// Full detail (headers, timings) for a single URL; one line per URL otherwise.
    var verbose: Bool

    func print(_ outcome: FetchOutcome) {
        guard !quiet else { return }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            if let data = try? encoder.encode(FetchReport(outcome)) {
                Swift.print(String(decoding: data, as: UTF8.self))
            }
        } else if verbose {
            printText(detailedText(outcome))
        } else if let response = outcome.result?.response {
            printText("\(response.status) \(response.body.count) B \(format(response.timings.total)) \(outcome.url)")
        } else if let error = outcome.error {
            printText("ERR \(error.kind.rawValue) \(outcome.url): \(error.message)")
        }
    }

    private func detailedText(_ outcome: FetchOutcome) -> String {
        var lines: [String] = []
        for hop in outcome.result?.chain.dropLast() ?? [] {
            lines.append("\(hop.status) \(hop.url) -> \(hop.location ?? "?")")
        }
        guard let result = outcome.result else {
            let error = outcome.error
            lines.append("error: \(error?.kind.rawValue ?? "other"): \(error?.description ?? outcome.url)")
            return lines.joined(separator: "\n")
        }
        let r = result.response
        lines.append("HTTP/\(r.httpVersion) \(r.status) \(result.finalURL)")
        if let address = r.remoteAddress { lines.append("peer: \(address)\(r.remotePort.map { ":\($0)" } ?? "")") }
        lines.append("")
        lines += r.headers.map { "\($0.name): \($0.value)" }
        lines.append("")
        lines.append("body: \(r.body.count) bytes decoded, \(r.wireBodyBytes) bytes received")
        let t = r.timings
        lines.append(
            "timings: dns \(format(t.nameLookup)), connect \(format(t.connect)), tls \(format(t.tlsHandshake)), "
                + "first byte \(format(t.firstByte)), total \(format(t.total))")
        if result.redirectCount > 0 { lines.append("redirects: \(result.redirectCount)") }
        return lines.joined(separator: "\n")
    }

    private func format(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration.seconds * 1000)
    }
}
