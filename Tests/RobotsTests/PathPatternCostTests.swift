import FixtureServer
import TestSupport
import Testing

@testable import Robots

/// Rule matching reads the path once per rule, however many `*` a rule has, and decides as the candidate
/// positions of RFC 9309's wildcard would.
@Suite("robots.txt patterns match in linear time")
struct PathPatternCostTests {
    /// The wildcard read literally: every position a prefix of the pattern can end at, advanced byte by byte.
    static func reference(_ path: [UInt8], _ pattern: [UInt8]) -> Bool {
        var positions: Set<Int> = [0]
        for (offset, byte) in pattern.enumerated() {
            if byte == UInt8(ascii: "$") && offset == pattern.count - 1 { return positions.contains(path.count) }
            if byte == UInt8(ascii: "*"), let first = positions.min() {
                positions = Set(first...path.count)
                continue
            }
            positions = Set(positions.filter { $0 < path.count && path[$0] == byte }.map { $0 + 1 })
            if positions.isEmpty { return false }
        }
        return true
    }

    @Test("every pattern of up to six bytes over a, b, * and a final $ decides as the wildcard reads")
    func sameDecisions() {
        let letters = [UInt8(ascii: "a"), UInt8(ascii: "b")]
        var generator = SystemRandomNumberGenerator()
        let paths = (0..<60).map { _ in
            (0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
        }
        var patterns: [[UInt8]] = [[]]
        var longest: [[UInt8]] = [[]]
        for _ in 0..<6 {
            longest = longest.flatMap { pattern in (letters + [UInt8(ascii: "*")]).map { pattern + [$0] } }
            patterns += longest
        }
        patterns += patterns.map { $0 + [UInt8(ascii: "$")] }
        for pattern in patterns {
            for path in paths where PathPattern.matches(path, pattern) != Self.reference(path, pattern) {
                Issue.record("\(String(decoding: pattern, as: UTF8.self)) on \(String(decoding: path, as: UTF8.self))")
                return
            }
        }
    }

    @Test("a rule of 4,000 stars costs what a rule of one costs on an 8,000-byte path")
    func manyStars() {
        let path = "/" + String(repeating: "a", count: 8_000)
        let hostile = RobotsTxt(Array("User-agent: *\nDisallow: /\(String(repeating: "*a", count: 4_000))*b\n".utf8))
        let twin = RobotsTxt(Array("User-agent: *\nDisallow: /\(String(repeating: "a", count: 7_999))*ab\n".utf8))
        #expect(hostile.decision(for: path).allowed && twin.decision(for: path).allowed)
        let timing = TwinTiming.measure(within: 20) {
            for _ in 0..<20 { _ = hostile.decision(for: path) }
        } twin: {
            for _ in 0..<20 { _ = twin.decision(for: path) }
        }
        #expect(timing.isWithin(20), "\(timing)")
    }
}
