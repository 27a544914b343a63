import Fetching
import Store
import UniversalLinks

/// The universal-link rules a page task matches page URLs against.
typealias UniversalLinkRules = AppSiteAssociation

/// Fetches a host's apple-app-site-association file the way Apple's CDN does: over
/// `https`, from `/.well-known/`, no redirects, at most 128 KB.
package enum AppSiteAssociationLoader {
    /// The outcome for one host.
    package struct Attempt: Sendable {
        /// The parsed file, when the host serves a valid one.
        package var association: AppSiteAssociation?
        /// Why there is none, or what is wrong with it (`nil` when valid and clean).
        package var diagnosis: String?
        /// The HTTP status, when a response arrived.
        package var httpStatus: Int?
        /// The request made, for the fetch log.
        package var log: FetchLogEntry?
        /// The body of a 200 answer, kept in the store for the pass's other workers and for publishing.
        package var body: [UInt8]? = nil

        /// The apps the file names in any service (none when it was not served).
        package var apps: AssociatedApps {
            body.map { AssociatedApps(bytes: $0) } ?? AssociatedApps()
        }
    }

    /// The path Apple fetches.
    package static let path = "/.well-known/apple-app-site-association"

    /// The store name of the host's copy.
    package static let fileName = "apple-app-site-association"

    /// The apps a stored copy names in any service.
    static func apps(from file: HostFile) -> AssociatedApps {
        guard file.httpStatus == 200, let body = file.body else { return AssociatedApps() }
        return AssociatedApps(bytes: body)
    }

    /// The rules of a copy another worker of the pass stored (`nil` when it had none usable).
    static func rules(from file: HostFile) -> AppSiteAssociation? {
        guard file.httpStatus == 200, let body = file.body else { return nil }
        return try? AppSiteAssociation(bytes: body)
    }

    /// The URL of `origin`'s file: always `https` unless `allowPlainHTTP` (loopback tests).
    package static func url(origin: String, allowPlainHTTP: Bool) -> String {
        if allowPlainHTTP || origin.hasPrefix("https://") { return origin + path }
        // Apple fetches https on the default port, whatever port the page was served on.
        let hostAndPort = origin.dropFirst("http://".count)
        let host =
            hostAndPort.hasPrefix("[")
            ? String(hostAndPort.prefix { $0 != "]" }) + "]"
            : String(hostAndPort.prefix { $0 != ":" })
        return "https://" + host + path
    }

    /// Fetches and parses the file of `origin`.
    package static func fetch(
        origin: String, fetcher: Fetcher, maxBytes: Int, allowPlainHTTP: Bool, now: Double
    ) async -> Attempt {
        let url = url(origin: origin, allowPlainHTTP: allowPlainHTTP)
        let started = ContinuousClock.now
        do {
            let response = try await fetcher.fetch(FetchRequest(url: url, maxBodySize: maxBytes))
            let log = FetchLogEntry(
                url: url, at: now, httpStatus: response.status, bytes: response.body.count,
                seconds: (ContinuousClock.now - started).seconds, outcome: .appSiteAssociationFile, detail: nil)
            guard response.status == 200 else {
                let reason =
                    response.isRedirect
                    ? "answered \(response.status): Apple does not follow redirects for this file"
                    : "answered \(response.status)"
                return Attempt(association: nil, diagnosis: reason, httpStatus: response.status, log: log)
            }
            do {
                let association = try AppSiteAssociation(bytes: response.body)
                let issues = association.issues.map(\.description)
                return Attempt(
                    association: association, diagnosis: issues.isEmpty ? nil : issues.joined(separator: "; "),
                    httpStatus: 200, log: log, body: Array(response.body))
            } catch {
                // Kept all the same: a file without universal links may still associate apps through its
                // other services.
                return Attempt(
                    association: nil, diagnosis: error.description, httpStatus: 200, log: log,
                    body: Array(response.body))
            }
        } catch let error as FetchError {
            let reason =
                error.kind == .bodyTooLarge ? "larger than \(maxBytes / 1024) KB, Apple's limit" : error.message
            let log = FetchLogEntry(
                url: url, at: now, httpStatus: nil, bytes: 0, seconds: (ContinuousClock.now - started).seconds,
                outcome: .appSiteAssociationFile, detail: reason)
            return Attempt(association: nil, diagnosis: reason, httpStatus: nil, log: log)
        } catch {
            return Attempt(association: nil, diagnosis: String(describing: error), httpStatus: nil, log: nil)
        }
    }
}
