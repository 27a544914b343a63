import FixtureServer
import TestSupport
import Testing
import UniversalLinks

/// A 128 KB file costs what its bytes cost to read, and a URL what its bytes cost to match, whatever
/// shape the file takes. Each cost is bounded against a twin of the same size (``TwinTiming``).
@Suite("Association file cost")
struct AssociationCostTests {
    /// 2,000 rules naming a variable of 1,000 values that share no prefix (CJK characters, compared
    /// decoded), or for the twin a variable the file does not define (the same bytes, each rule refused at once).
    static func variableFile(naming name: String) -> String {
        let values = (0..<1_000).map { "\"\(Character(Unicode.Scalar(0x4E00 + $0)!))\"" }.joined(separator: ",")
        let rule = #"{"/":"/$(\#(name))","percentEncoded":false}"#
        let rules = Array(repeating: rule, count: 2_000).joined(separator: ",")
        return componentsFile("[\(rules)]", extra: "\"substitutionVariables\": {\"v\": [\(values)]}, ")
    }

    @Test("2,000 rules naming a variable of 1,000 values are read in the time unknown names take")
    func sharedVariable() throws {
        let text = Self.variableFile(naming: "v")
        let twin = Self.variableFile(naming: "x")
        let file = try AppSiteAssociation(text)
        // The first rules fit the file's node budget; those after it are refused, each with an issue.
        #expect(file.appIDs(matching: "https://example.com/%E4%B8%87") == ["ABCDE12345.com.example.app"])
        #expect(file.issues.contains { $0.reason.contains("automaton states") })
        let timing = TwinTiming.measure(within: 20) {
            _ = try? AppSiteAssociation(text)
        } twin: {
            _ = try? AppSiteAssociation(twin)
        }
        #expect(timing.isWithin(20), "\(timing)")
    }

    /// One rule whose `?` names 10,000 query items, matched against a URL of 1,500 query items.
    static let queryItems = (0..<10_000).map { "\"q\($0)\":\"*\"" }.joined(separator: ",")
    static let manyItemsURL = "https://example.com/p?" + (0..<1_500).map { "z\($0)" }.joined(separator: "&")

    @Test("a rule of 10,000 query item patterns is read in the time 100 rules of 100 take")
    func manyQueryItems() throws {
        let text = componentsFile("[{\"/\":\"*\",\"?\":{\(Self.queryItems)}}]")
        // The same patterns to compile, a hundred to a file: a tighter bound than 20 suits the same work.
        let twins = (0..<100).map { file in
            let items = (0..<100).map { "\"q\(file * 100 + $0)\":\"*\"" }.joined(separator: ",")
            return componentsFile("[{\"/\":\"*\",\"?\":{\(items)}}]")
        }
        let timing = TwinTiming.measure(within: 5) {
            _ = try? AppSiteAssociation(text)
        } twin: {
            for twin in twins { _ = try? AppSiteAssociation(twin) }
        }
        #expect(timing.isWithin(5), "\(timing)")
    }

    @Test("a URL of 1,500 query items is matched against 10,000 item patterns in the time a fragment takes")
    func manyQueryItemsMatched() throws {
        let file = try AppSiteAssociation(componentsFile("[{\"/\":\"*\",\"?\":{\(Self.queryItems)}}]"))
        let fragment = Self.manyItemsURL.replacingOccurrences(of: "?", with: "#")
        #expect(file.appIDs(matching: Self.manyItemsURL) == ["ABCDE12345.com.example.app"])
        let timing = TwinTiming.measure(within: 20) {
            _ = file.evaluate(Self.manyItemsURL)
        } twin: {
            _ = file.evaluate(fragment)
        }
        #expect(timing.isWithin(20), "\(timing)")
    }

    @Test("6,000 apps opening one URL are listed in the time their matches take to find")
    func manyApps() throws {
        let ids = (0..<6_000).map { "\"ABCDE12345.a\($0)\"" }.joined(separator: ",")
        let file = try AppSiteAssociation(
            #"{"applinks": {"details": [{"appIDs": ["# + ids + #"], "components": [{"/":"*"}]}]}}"#)
        #expect(file.appIDs(matching: "https://example.com/x").count == 6_000)
        let timing = TwinTiming.measure(within: 20) {
            _ = file.appIDs(matching: "https://example.com/x")
        } twin: {
            _ = file.evaluate("https://example.com/x")
        }
        #expect(timing.isWithin(20), "\(timing)")
    }

    @Test("a variable value longer than a pattern may be is skipped with an issue")
    func longValue() throws {
        let value = String(repeating: "a", count: 100_000)
        let file = try AppSiteAssociation(
            componentsFile(
                #"[{"/":"/$(v)"}]"#, extra: "\"substitutionVariables\": {\"v\": [\"\(value)\", \"b\"]}, "))
        #expect(file.issues.map(\.reason).contains("a value is longer than 1024 characters; skipped"))
        #expect(file.appIDs(matching: "https://example.com/b") == ["ABCDE12345.com.example.app"])
        #expect(file.appIDs(matching: "https://example.com/" + value.prefix(1_000)).isEmpty)
    }
}
