// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Searchlight",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "searchlight", targets: ["searchlight"]),
        .library(name: "Fetching", targets: ["Fetching"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // 2.101.3: NIO's HTTP/1 encoder frames the answer to a HEAD request without a body (`serve` answers
        // HEAD as GET and drops the body; a chunked terminator would otherwise follow).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // C libraries, wrapped once each. Only the module named after the job imports them.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // Byte-level ASCII text, written once for every module that reads or writes escapes: hexadecimal
        // digits, RFC 3986 character classes, percent-escape decoding, encoding and normalization. Pure Swift,
        // no dependencies, so the modules that share no other dependency (Robots, StrictJSON, URLCanonical)
        // can all use it.
        .target(name: "ASCIIText"),

        // The HTTP layer: libcurl's multi interface driven from one dedicated thread.
        .target(
            name: "Fetching",
            dependencies: [
                "CCurl",
                "URLCanonical",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),

        // Reading web markup: charset decoding, libxml2 HTML parsing, JSON-LD (StrictJSON's parser with its
        // leniencies, under the JSON-LD repairs), microdata, RDFa; sitemaps (libxml2's streaming reader, zlib
        // for .gz).
        .target(
            name: "Markup",
            dependencies: [
                "StableHash",
                "ASCIIText",
                "CivilTime",
                "CLibXML2",
                "CZlib",
                "StrictJSON",
                "URLCanonical",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The one calendar and the one reader of each date format: proleptic Gregorian days (leap years, days
        // since 1970), ISO 8601 timestamps (donations, `$time.iso`, sitemaps) and HTTP dates (the crawler, the
        // fixture server). A leaf: the modules that read dates share no other dependency. Pure Swift, no
        // Foundation.
        .target(name: "CivilTime"),

        // robots.txt per RFC 9309: pure Swift, no I/O.
        .target(name: "Robots", dependencies: ["ASCIIText"]),

        // Crawl scope: registrable domains (libpsl), include/exclude patterns, frontier URL keys.
        .target(
            name: "Scope",
            dependencies: ["ASCIIText", "CPSL", "URLCanonical"]
        ),

        // WHATWG URL parsing and the crawl's URL dedup key (SPEC §4). Pure Swift, no I/O.
        .target(name: "URLCanonical", dependencies: ["ASCIIText"]),

        // The one JSON parser and value: strict RFC 8259 by default (bounded depth and size, errors with a
        // byte offset, numbers kept as written), with opt-in counted leniencies for JSON-LD on web pages, and
        // the one writer (`JSONValue.serialized()`). Pure Swift, no I/O.
        .target(name: "StrictJSON", dependencies: ["ASCIIText"]),

        // apple-app-site-association: parsing, diagnosis and universal-link matching. Pure Swift, no I/O.
        .target(
            name: "UniversalLinks",
            dependencies: ["ASCIIText", "StrictJSON"]
        ),

        // Searchable items: the published item model, its JSON codec and the markup-to-item mapping.
        // URLCanonical's WHATWG parse decides which URLs a field may publish; StrictJSON reads a stored
        // item back strictly (the JSON-LD repairs are for pages, not for text the program wrote).
        .target(
            name: "Items",
            dependencies: ["Markup", "PlainText", "StrictJSON", "URLCanonical"]
        ),

        // Donation files (SPEC §6): NSUserActivity and CSSearchableItem records read, validated and
        // reduced (only requiredUserInfoKeys of userInfo) line by line. Pure Swift.
        .target(
            name: "Donations",
            dependencies: ["CivilTime", "FileInput", "PlainText", "StrictJSON", "URLCanonical"]
        ),

        // Untrusted text made plain: control characters removed before text is stored, and kept off the
        // terminal and out of reports. Pure Swift.
        .target(name: "PlainText"),

        // A file the user named, or standard input, read in bounded chunks with the system's reason on
        // failure: the donation importer's and the command line's one file reader.
        .target(name: "FileInput"),

        // 64-bit FNV-1a, the one hash of stored names and fingerprints (the same in every process).
        .target(name: "StableHash"),

        // The CSSearchQuery language (SPEC §4): parser with located errors, compiled to parameterised SQL.
        .target(
            name: "SearchQuery",
            dependencies: ["CivilTime"]
        ),

        // The shared store: the crawl frontier, fetch log, pages and host caches, on SQLite (WAL, through
        // GRDB) or PostgreSQL (through PostgresNIO, imported here only). URLCanonical keys the frontier
        // (migration v3-frontier-key backfills the key of existing rows); Scope's CrawlURL renormalizes stored
        // frontier URLs (migration v14-whatwg-crawl-url). Items: a published item is stored in its codec's
        // stored form and put back together where it is read (`StoredItem`).
        .target(
            name: "Store",
            dependencies: [
                "StableHash",
                "ASCIIText",
                "Items",
                "Scope",
                "SearchQuery",
                "URLCanonical",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),

        // Deduplication, eligibility and the dedup report (SPEC §4, §6): pure values, no I/O.
        .target(
            name: "Bridge",
            dependencies: ["StableHash", "PlainText", "URLCanonical"]
        ),

        // The public index: donations imported into the store, publishing, FTS5 search, export.
        .target(
            name: "Index",
            dependencies: [
                "Bridge",
                "Donations",
                "Items",
                "PlainText",
                "SearchQuery",
                "Store",
                "StrictJSON",
                "URLCanonical",
                // The apps each host's apple-app-site-association names: an activity joins a page only then.
                "UniversalLinks",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // `searchlight serve`: the HTTP API over the store (SPEC §6) on Hummingbird, donation intake with
        // tokens, the server's own incremental publish, and Prometheus metrics through swift-metrics.
        .target(
            name: "Service",
            dependencies: [
                "ASCIIText",
                "Bridge",
                "Donations",
                "Index",
                "Items",
                "PlainText",
                "SearchQuery",
                "Store",
                .product(name: "Hummingbird", package: "hummingbird"),
                // `serve`'s own HTTP/1 connection (the limits, HTTP/1.0, HEAD) in Hummingbird's pipeline.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The crawler: scheduler, politeness, robots and sitemaps over HTTP, pages into the store.
        .target(
            name: "Crawler",
            dependencies: [
                "CivilTime",
                "Fetching",
                "Items",
                "Markup",
                "Renderer",
                "Robots",
                "Scope",
                "Store",
                "UniversalLinks",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The thin command line tool.
        .executableTarget(
            name: "searchlight",
            dependencies: [
                "Bridge",
                "Crawler",
                "Donations",
                "FileInput",
                "Index",
                "Fetching",
                "Items",
                "Markup",
                "PlainText",
                "Renderer",
                "Robots",
                "Scope",
                "Service",
                "Store",
                "StrictJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // The server's publish child: Foundation's `Process.run()` on this toolchain reads past a
                // buffer while it scans /proc/self/fd and crashes now and then (swift-corelibs-foundation
                // #5472); Subprocess spawns with close_range and waits on a pidfd.
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // Test support: a real HTTP server on loopback serving Fixtures/ with programmable misbehaviour.
        // A library (not a test target) so every test target and the demo server executable share it.
        .target(
            name: "FixtureServer",
            dependencies: [
                "StableHash",
                "CivilTime",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        // Headless Chromium over the DevTools protocol (--remote-debugging-pipe), every request of a page
        // answered by its caller: the browser side of rendering.
        .target(
            name: "Renderer",
            dependencies: ["StrictJSON", .product(name: "Logging", package: "swift-log")]
        ),
        // Test support beside the fixture server: a throw-away PostgreSQL cluster (initdb into a temporary
        // folder, a free loopback port, a watchdog that stops it if the tests die), headless Chromium, child
        // processes, seeded randomness and paired timings. A library so every test target shares it.
        .target(name: "TestSupport", dependencies: ["Store"]),
        .executableTarget(
            name: "searchlight-fixture-server",
            dependencies: [
                "FixtureServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(
            name: "RendererTests",
            dependencies: ["Renderer", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "ASCIITextTests",
            dependencies: ["ASCIIText"]
        ),
        .testTarget(
            name: "FetchingTests",
            dependencies: ["TestSupport", "Fetching", "FixtureServer", "Scope"]
        ),
        .testTarget(
            name: "RobotsTests",
            dependencies: ["TestSupport", "Robots", "FixtureServer"]
        ),
        .testTarget(
            name: "ScopeTests",
            dependencies: ["Scope", "URLCanonical", "FixtureServer"]
        ),
        .testTarget(
            name: "URLCanonicalTests",
            dependencies: ["URLCanonical", "FixtureServer"]
        ),
        .testTarget(
            name: "UniversalLinksTests",
            dependencies: ["TestSupport", "UniversalLinks", "FixtureServer"]
        ),
        .testTarget(
            name: "ItemsTests",
            dependencies: ["Items", "Markup", "FixtureServer"]
        ),
        .testTarget(
            name: "MarkupTests",
            // CLibXML2 only for the differential test that holds the HTML tree to libxml2's own.
            dependencies: ["TestSupport", "Markup", "StrictJSON", "FixtureServer", "CLibXML2"]
        ),
        .testTarget(
            name: "SitemapTests",
            dependencies: ["TestSupport", "Markup", "FixtureServer"]
        ),
        .testTarget(
            name: "CrawlerTests",
            dependencies: [
                "TestSupport",
                "Crawler", "Store", "Scope", "Fetching", "FixtureServer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "StrictJSONTests",
            dependencies: ["StrictJSON"]
        ),
        .testTarget(
            name: "DonationsTests",
            dependencies: ["TestSupport", "Donations", "FixtureServer"]
        ),
        .testTarget(
            name: "SearchQueryTests",
            dependencies: [
                "TestSupport",
                "SearchQuery", "FixtureServer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "BridgeTests",
            dependencies: ["TestSupport", "Bridge", "FixtureServer"]
        ),
        .testTarget(
            name: "PlainTextTests",
            dependencies: ["PlainText"]
        ),
        .testTarget(
            name: "FileInputTests",
            dependencies: ["FileInput"]
        ),
        .testTarget(
            name: "StableHashTests",
            dependencies: ["StableHash"]
        ),
        .testTarget(
            name: "IndexTests",
            dependencies: [
                "TestSupport",
                "Index", "Bridge", "Crawler", "Donations", "Fetching", "Items", "Store", "FixtureServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "FixtureServerTests",
            dependencies: ["TestSupport", "CivilTime", "FixtureServer"]
        ),
        .testTarget(
            name: "CivilTimeTests",
            dependencies: ["CivilTime"]
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "TestSupport",
                "Store", "FixtureServer", "SearchQuery",
                // The export tests read both engines through the index module's export.
                "Index",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "SearchlightTests",
            dependencies: [
                "TestSupport",
                "searchlight", "FixtureServer", "Index", "Store",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
