import ArgumentParser

/// `--engagement-threshold K`, shared by `import` and `publish` (SPEC §7: a setting of the store).
struct EngagementOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Distinct donors an activity needs; recorded in the store and applied from then on (default 3).",
            valueName: "K"))
    var engagementThreshold: Int?

    func validate() throws {
        if let engagementThreshold, !(1...1_000_000).contains(engagementThreshold) {
            throw ValidationError("--engagement-threshold must be between 1 and 1000000.")
        }
    }
}
