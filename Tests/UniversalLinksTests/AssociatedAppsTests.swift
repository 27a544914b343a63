import Testing
import UniversalLinks

/// Which apps a host's apple-app-site-association ties to it, in every service Apple uses for that.
@Suite struct AssociatedAppsTests {
    @Test(
        "the bundle part of every app ID, in applinks, activitycontinuation and webcredentials",
        arguments: [
            (#"{"applinks":{"details":[{"appIDs":["T1.com.a","T2.com.b"],"components":[]}]}}"#, ["com.a", "com.b"]),
            (#"{"applinks":{"apps":[],"details":[{"appID":"T1.com.legacy","paths":["*"]}]}}"#, ["com.legacy"]),
            (#"{"activitycontinuation":{"apps":["T1.com.handoff"]}}"#, ["com.handoff"]),
            (#"{"webcredentials":{"apps":["T1.com.passwords"]}}"#, ["com.passwords"]),
            (
                #"{"applinks":{"details":[{"appIDs":["T1.com.a"]}]},"webcredentials":{"apps":["T1.com.c"]}}"#,
                ["com.a", "com.c"]
            ),
            // Wrong shapes and app IDs without a team part name nothing; the rest of the file still counts.
            (#"{"applinks":{"details":[{"appIDs":"T1.com.one"},{"appIDs":[7,"nodot",".x"]}]}}"#, ["com.one"]),
            (#"{"webcredentials":{"apps":"T1.com.lone"},"activitycontinuation":7}"#, ["com.lone"]),
            (#"not json"#, []),
            (#"[]"#, []),
        ] as [(String, Set<String>)])
    func bundles(file: String, expected: Set<String>) {
        #expect(AssociatedApps(bytes: Array(file.utf8)).bundles == expected)
    }

    @Test func aFileOverAppleSLimitNamesNoApp() {
        let padding = String(repeating: " ", count: 131_072)
        let file = #"{"webcredentials":{"apps":["T1.com.a"]}}"# + padding
        #expect(AssociatedApps(bytes: Array(file.utf8)).bundles.isEmpty)
    }

    @Test func associatesByBundleIdentifier() {
        let apps = AssociatedApps(bytes: Array(#"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#.utf8))
        #expect(apps.associates("com.example.app"))
        #expect(!apps.associates("ABCDE12345.com.example.app"))
        #expect(!apps.associates("com.example"))
    }
}
