import Foundation
import Testing
import URLCanonical

/// WHATWG's URL parser conformance data (`Fixtures/conformance/url/`, see `SOURCE.md` there).
///
/// The floors are the counts the parser reaches today; a regression fails the suite, an improvement
/// asks for the floors and `Docs/conformance.md` to be raised.
@Suite("URL conformance (WHATWG urltestdata)")
struct ConformanceURLTests {
    static let totalFloor = 891
    static let webFloor = 480

    @Test("every case runs without crashing and the pass count holds its floor")
    func passCount() throws {
        let cases = try URLTestCase.all()
        #expect(cases.count == 891)
        var failures: [String] = []
        var passed = 0
        var webPassed = 0
        for testCase in cases {
            if let mismatch = testCase.mismatch() {
                failures.append("\(testCase.testDescription): \(mismatch)")
            } else {
                passed += 1
                if testCase.isWeb { webPassed += 1 }
            }
        }
        let webTotal = cases.filter(\.isWeb).count
        if let path = ProcessInfo.processInfo.environment["URL_CONFORMANCE_REPORT"] {
            let report =
                "passed \(passed)/\(cases.count), web \(webPassed)/\(webTotal)\n"
                + failures.joined(separator: "\n")
            try report.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(passed >= Self.totalFloor, "passed \(passed)/\(cases.count)")
        #expect(webPassed >= Self.webFloor, "web cases passed \(webPassed)/\(webTotal)")
    }
}
