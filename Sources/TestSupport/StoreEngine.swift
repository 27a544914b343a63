/// The two store engines a test may run on, for tests that check one contract on both: the same tests,
/// the same expectations. Shown by name in a parameterized test's arguments.
package enum StoreEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    package var description: String { rawValue }
}
