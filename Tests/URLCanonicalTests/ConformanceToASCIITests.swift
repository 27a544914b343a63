import FixtureServer
import Foundation
import Testing
import URLCanonical

/// WHATWG's host-to-ASCII cases (`Fixtures/conformance/url/toascii.json`), run the way upstream's
/// `toascii.window.js` does: the host of `https://INPUT/x`, or failure when `output` is null.
///
/// The parser applies IDNA without the UTS #46 tables, so some cases are known to differ; the floor is
/// the count reached today (see `Docs/conformance.md`).
@Suite("URL conformance (WHATWG toascii)")
struct ConformanceToASCIITests {
    static let floor = 86

    @Test("the pass count holds its floor")
    func passCount() throws {
        let data = try Fixtures.bytes("conformance/url/toascii.json")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [Any])
            .compactMap { $0 as? [String: Any] }
        #expect(objects.count == 87)
        var passed = 0
        var failures: [String] = []
        for object in objects {
            guard let input = object["input"] as? String else { continue }
            let expected = object["output"] as? String
            let host = WebURL("https://" + input + "/x")?.host
            if host == expected {
                passed += 1
            } else {
                failures.append(
                    "\(input.debugDescription): got \(host ?? "failure"), expected \(expected ?? "failure")")
            }
        }
        if let path = ProcessInfo.processInfo.environment["URL_CONFORMANCE_REPORT"] {
            try (["passed \(passed)/\(objects.count)"] + failures).joined(separator: "\n")
                .write(toFile: path + ".toascii", atomically: true, encoding: .utf8)
        }
        #expect(passed >= Self.floor, "passed \(passed)/\(objects.count)")
    }
}
