// swift-tools-version:6.1
// The libFuzzer harness for Searchlight's page extraction (issue 3). Build and run it with
// `Scripts/fuzz-extractor.sh`, not by hand: the sanitizer and coverage flags and the libFuzzer runtime
// are passed on the command line there, so this manifest stays plain.
//
// A package of its own, so the main package's `swift build` and `swift test` never see it. `Markup`,
// `Items`, `StrictJSON`, `PlainText`, `URLCanonical`, `ASCIIText`, `CLibXML2` and `CZlib` are symbolic links
// to the main package's own source folders: the fuzzer compiles exactly the code that ships, with no library
// product added to the main manifest.
import PackageDescription

let package = Package(
    name: "SearchlightFuzz",
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2")
    ],
    targets: [
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibFuzzer"),
        .target(name: "ASCIIText"),
        .target(name: "StrictJSON", dependencies: ["ASCIIText"]),
        .target(name: "PlainText"),
        .target(name: "URLCanonical", dependencies: ["ASCIIText"]),
        .target(
            name: "Markup",
            dependencies: ["ASCIIText", "CLibXML2", "CZlib", "StrictJSON", "URLCanonical", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "Items", dependencies: ["Markup", "PlainText", "StrictJSON", "URLCanonical"]),
        .executableTarget(name: "ExtractorFuzzer", dependencies: ["Items", "Markup", "StrictJSON", "CLibFuzzer"]),
    ],
    swiftLanguageModes: [.v6]
)
