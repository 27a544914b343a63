import Bridge
import Foundation
import Hummingbird
import Index
import Metrics
import Store

/// `GET /api/search`, `GET /api/items/…`, `GET /api/report`, `GET /report`: the command line's answers
/// over HTTP.
extension SearchService {
    /// SPEC §6: the `search --json` object; 400 for a query that does not parse (with its column), an
    /// empty search or a limit out of range.
    func search(_ request: Request) async throws -> Response {
        let parameters = FormQuery(request.uri.query)
        if let name = parameters.undecodable {
            throw ServiceError(.badRequest, "the parameter \(name) is not valid percent-encoding (send + as %2B)")
        }
        let text = parameters["q"] ?? ""
        let query = parameters["query"].flatMap { $0.isEmpty ? nil : $0 }
        var limit = PublicSearch.defaultLimit
        if let given = parameters["limit"] {
            guard let number = Int(given), (1...PublicSearch.maxLimit).contains(number) else {
                throw ServiceError(.badRequest, "limit must be a number between 1 and \(PublicSearch.maxLimit)")
            }
            limit = number
        }
        guard !text.isEmpty || query != nil else { throw ServiceError(.badRequest, "give q (free text) or query") }
        let results = try await runSearch(text, query: query, limit: limit)
        return .json(results.jsonText(query: text.isEmpty ? query ?? "" : text))
    }

    /// Runs one search, timed into the latency histogram; a usage error is a 400, the store's a 503.
    func runSearch(_ text: String, query: String?, limit: Int) async throws -> SearchResults {
        let start = ContinuousClock.now
        defer { metrics.searchDuration.record(duration: ContinuousClock.now - start) }
        do {
            return try await PublicSearch(source: source).search(text, query: query, limit: limit)
        } catch {
            switch error {
            case .query(let syntax): throw ServiceError(.badRequest, syntax.message, column: syntax.column)
            case .store(let failure):
                logger.error("search failed", metadata: ["reason": "\(failure)"])
                throw ServiceError(.serviceUnavailable, "the store cannot be read")
            default: throw ServiceError(.badRequest, error.description)
            }
        }
    }

    /// SPEC §6: the published item whose `uniqueIdentifier` is the rest of the path, percent-decoded; 404.
    func item(_ request: Request) async throws -> Response {
        // From the raw target: a decoded path would split an identifier holding `%2F`.
        let target = request.head.path ?? ""
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let prefix = "/api/items/"
        guard path.hasPrefix(prefix), let identifier = String(path.dropFirst(prefix.count)).removingPercentEncoding,
            !identifier.isEmpty
        else { throw ServiceError(.badRequest, "give the item's uniqueIdentifier, percent-encoded") }
        let json: String?
        do {
            json = try await source.publicItem(uniqueIdentifier: identifier)
        } catch {
            logger.error("item lookup failed", metadata: ["reason": "\(error)"])
            throw ServiceError(.serviceUnavailable, "the store cannot be read")
        }
        guard let json else { throw ServiceError(.notFound, "no published item has this uniqueIdentifier") }
        return .json(json)
    }

    /// SPEC §6: the dedup report JSON of the last publish, streamed from the file ``ReportCache`` wrote for
    /// that publish (``ReportFile``); 404 before the first publish.
    func reportJSON(from reports: ReportCache) async throws -> Response {
        let file: ReportFile
        do {
            guard let path = try await reports.file() else {
                throw ServiceError(.notFound, "nothing was published yet")
            }
            file = try await ReportFile.open(path)
        } catch let error as ServiceError {
            throw error
        } catch {
            logger.error("report failed", metadata: ["reason": "\(error)"])
            throw ServiceError(.serviceUnavailable, "the report cannot be read")
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: file.body)
    }

    /// The dedup report as HTML (`report --format html`), at most ``reportClusterLimit`` clusters listed;
    /// 404 before the first publish, 503 when the store cannot be read.
    func reportHTML() async throws -> Response {
        let report: DedupReport?
        do {
            report = try await ReportReader(index: index).report(clusterLimit: Self.reportClusterLimit)
        } catch {
            logger.error("report failed", metadata: ["reason": "\(error)"])
            throw ServiceError(.serviceUnavailable, "the report cannot be read")
        }
        guard let report else { throw ServiceError(.notFound, "nothing was published yet") }
        var response = Response.text(
            report.renderedHTML(limits: DedupReport.ListingLimits(clusters: Self.reportClusterLimit)),
            contentType: "text/html; charset=utf-8")
        response.headers[.contentSecurityPolicy] = SearchPage.contentSecurityPolicy
        return response
    }

    /// How many clusters `/report` lists (the JSON lists them all).
    static let reportClusterLimit = 200
}
