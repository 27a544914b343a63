import ArgumentParser
import Fetching
import FileInput
import Foundation
import Logging
import Robots

extension Searchlight {
    /// `searchlight fetch URL…`: fetch pages the way the crawler does and show what came back.
    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Fetch URLs as the crawler would and show status, headers, timings and redirects.",
            discussion: """
                Redirects are followed one hop at a time (each hop checked like the first) and \
                reported. Only http and https are fetched, and only public addresses unless \
                --allow-private-network is given. With several URLs (or --input), one line per \
                URL is printed (JSON Lines with --json) and a summary goes to standard error.
                Exit status: 0 when every URL got an HTTP response (any status), 1 when some did \
                not, 2 for usage errors, 3 when fetching could not start.
                """
        )

        @Argument(help: "The http or https URLs to fetch.")
        var urls: [String] = []

        @Option(
            name: .long,
            help: ArgumentHelp("Read more URLs from a file, one per line ('-' for standard input).", valueName: "file"))
        var input: String?

        @Flag(help: "Print JSON (one object per URL) instead of text.")
        var json = false

        @Flag(help: "Print only the summary (bulk mode).")
        var quiet = false

        @Option(help: "Follow at most this many redirects (0 reports the first response).")
        var maxRedirects = 5

        @Option(
            name: .customLong("header"), help: ArgumentHelp("Send an extra request header.", valueName: "Name: value"))
        var headers: [String] = []

        @Option(help: "Send If-None-Match with this entity tag.")
        var ifNoneMatch: String?

        @Option(help: "Send If-Modified-Since with this HTTP date.")
        var ifModifiedSince: String?

        @Flag(help: "Send HEAD instead of GET.")
        var head = false

        @Option(help: ArgumentHelp("Write the (last) body to this file ('-' for standard output).", valueName: "file"))
        var output: String?

        @OptionGroup var network: NetworkOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard !urls.isEmpty || input != nil else { throw ValidationError("Give at least one URL or --input FILE.") }
            guard maxRedirects >= 0 else { throw ValidationError("--max-redirects must be 0 or more.") }
            for header in headers where !header.contains(":") {
                throw ValidationError("--header '\(header)' is not 'Name: value'.")
            }
        }

        func run() async throws {
            global.bootstrapLogging()
            let logger = Logger(label: "searchlight.fetch")
            let targets = try urls + readInputURLs()
            let (method, headers, ifNoneMatch, ifModifiedSince) = (
                head ? FetchRequest.Method.head : .get, parsedHeaders, ifNoneMatch, ifModifiedSince
            )
            let request: @Sendable (String) -> FetchRequest = { url in
                FetchRequest(
                    url: url, method: method, headers: headers, ifNoneMatch: ifNoneMatch,
                    ifModifiedSince: ifModifiedSince)
            }
            let printer = FetchPrinter(json: json, quiet: quiet, verbose: targets.count == 1)
            let started = ContinuousClock.now
            let summary = try await withFetcher(configuration: network.fetchConfiguration, logger: logger) { fetcher in
                try await fetchAll(targets, using: fetcher, request: request, printer: printer)
            }
            if targets.count > 1 {
                printToStandardError(summary.line(elapsed: ContinuousClock.now - started))
            }
            if summary.failed > 0 { throw Exit.partialFailure }
        }

        private var parsedHeaders: HTTPHeaders {
            HTTPHeaders(
                headers.compactMap { line in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return HTTPHeaders.Field(
                        name: String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                        value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
                })
        }

        /// The largest `--input` list read, in bytes.
        static let maxInputBytes = 64 << 20

        private func readInputURLs() throws -> [String] {
            guard let input else { return [] }
            let data: [UInt8]
            do {
                data = try InputFile.read(input, limit: Self.maxInputBytes)
            } catch {
                throw ValidationError("cannot read --input \(input): \(error)")
            }
            // Split and trim as bytes: a benchmark list has tens of thousands of lines.
            let blank: Set<UInt8> = [0x20, 0x09, 0x0D]
            return data.split(separator: 0x0A).compactMap { line in
                guard let first = line.firstIndex(where: { !blank.contains($0) }),
                    let last = line.lastIndex(where: { !blank.contains($0) }), line[first] != UInt8(ascii: "#")
                else { return nil }
                return String(decoding: line[first...last], as: UTF8.self)
            }
        }

        /// Fetches every URL with a bounded number of tasks alive, printing each result as it lands.
        private func fetchAll(
            _ targets: [String], using fetcher: Fetcher, request: @escaping @Sendable (String) -> FetchRequest,
            printer: FetchPrinter
        ) async throws -> FetchSummary {
            var summary = FetchSummary()
            var progress = ProgressLine(total: targets.count, sharesTerminal: !quiet && isatty(STDOUT_FILENO) == 1)
            defer { progress.finish() }
            let maxRedirects = self.maxRedirects
            let window = max(1, fetcher.configuration.maxConcurrentTransfers * 4)
            try await withThrowingTaskGroup(of: FetchOutcome.self) { group in
                var next = 0
                func addTask() {
                    let url = targets[next]
                    next += 1
                    group.addTask { await FetchOutcome.fetch(request(url), using: fetcher, maxRedirects: maxRedirects) }
                }
                while next < min(window, targets.count) { addTask() }
                while let outcome = try await group.next() {
                    summary.add(outcome)
                    progress.update(done: summary.succeeded + summary.failed, failed: summary.failed)
                    printer.print(outcome)
                    if targets.count == 1, let output, let body = outcome.result?.response.body {
                        try writeBody(body, to: output)
                    }
                    if next < targets.count { addTask() }
                }
            }
            return summary
        }

        private func writeBody(_ body: [UInt8], to path: String) throws {
            if path == "-" {
                FileHandle.standardOutput.write(Data(body))
            } else {
                try Data(body).write(to: URL(fileURLWithPath: path))
            }
        }
    }
}

/// Network limits and policy flags shared by the commands that fetch.
struct NetworkOptions: ParsableArguments {
    @Flag(help: "Allow loopback, private, link-local and other special addresses (tests and intranets).")
    var allowPrivateNetwork = false

    @Option(
        help: ArgumentHelp(
            "Allow one special address range (repeatable): loopback, private, shared, link-local, multicast, "
                + "reserved or unspecified; narrower than --allow-private-network.", valueName: "range"))
    var allowNetwork: [String] = []

    @Option(help: "Transfers in flight at once, across all hosts.")
    var concurrency = 16

    @Option(help: "Transfers in flight at once per host.")
    var perHost = 2

    @Option(help: ArgumentHelp("Seconds allowed for DNS, TCP connect and TLS handshake.", valueName: "seconds"))
    var connectTimeout = 10.0

    @Option(help: ArgumentHelp("Seconds allowed for a whole transfer.", valueName: "seconds"))
    var timeout = 60.0

    @Option(help: ArgumentHelp("The largest decoded body accepted, in bytes.", valueName: "bytes"))
    var maxBodySize = 10 * 1024 * 1024

    @Option(help: "The User-Agent header.")
    var userAgent = FetchConfiguration.defaultUserAgent

    @Option(
        help: ArgumentHelp(
            "Trust the certificate authorities in this PEM file instead of the system's.", valueName: "file"))
    var cacert: String?

    func validate() throws {
        guard concurrency >= 1, perHost >= 1 else {
            throw ValidationError("--concurrency and --per-host must be at least 1.")
        }
        // An upper bound too: a day is plenty, and it keeps the millisecond conversion in range.
        guard (0.001...86_400).contains(connectTimeout), (0.001...86_400).contains(timeout) else {
            throw ValidationError("Timeouts must be between 0.001 and 86400 seconds.")
        }
        guard maxBodySize > 0 else { throw ValidationError("--max-body-size must be positive.") }
        for name in allowNetwork where Self.ranges[name] == nil {
            throw ValidationError(
                "--allow-network \(name): not a range (\(Self.ranges.keys.sorted().joined(separator: ", ")))")
        }
    }

    /// The names `--allow-network` takes.
    static let ranges: [String: IPAddress.SpecialRange] = [
        "loopback": .loopback, "private": .private, "shared": .sharedAddressSpace, "link-local": .linkLocal,
        "multicast": .multicast, "reserved": .reserved, "unspecified": .unspecified,
    ]

    /// The address policy the flags ask for.
    var addressPolicy: AddressPolicy {
        if allowPrivateNetwork { return .allowAll }
        return AddressPolicy(allowing: Set(allowNetwork.compactMap { Self.ranges[$0] }))
    }

    /// The robots.txt product token: the first token of `--user-agent`, `Applebot` by default.
    var productToken: String {
        userAgent == FetchConfiguration.defaultUserAgent ? "Applebot" : RobotsTxt.productToken(of: userAgent)
    }

    var fetchConfiguration: FetchConfiguration {
        FetchConfiguration(
            userAgent: userAgent,
            maxConcurrentTransfers: concurrency,
            maxTransfersPerHost: perHost,
            connectTimeout: .milliseconds(Int(connectTimeout * 1000)),
            totalTimeout: .milliseconds(Int(timeout * 1000)),
            maxBodySize: maxBodySize,
            addressPolicy: addressPolicy,
            caBundlePath: cacert)
    }
}
