import Donations
import NIOCore

/// A donation body read into records: parsed and checked against the token's bundles, on a thread that
/// answers no search.
struct DonationBody: Sendable {
    var records: [DonationRecord] = []
    var rejected: [DonationIssue] = []
    /// The first bundle a line names that the token may not donate for.
    var foreignBundle: String?

    /// Reads every line of `body`, as `import` reads a file's.
    init(_ body: ByteBuffer, allowedBundles: Set<String>) throws {
        try body.withUnsafeReadableBytes { bytes in
            try DonationFile.forEachRecord(inBytes: bytes, named: "body") { result in
                switch result {
                case .success(let record):
                    if foreignBundle == nil, !allowedBundles.contains(record.bundleIdentifier) {
                        foreignBundle = record.bundleIdentifier
                    }
                    records.append(record)
                case .failure(let issue):
                    // A line refused for another reason still may not name another bundle.
                    if foreignBundle == nil, let named = issue.bundleIdentifier, !allowedBundles.contains(named) {
                        foreignBundle = named
                    }
                    rejected.append(issue)
                }
            }
        }
    }
}
