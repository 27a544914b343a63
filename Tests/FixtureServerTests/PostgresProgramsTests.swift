import Foundation
import Testing

@testable import TestSupport

/// Finding PostgreSQL: a test that needs a cluster fails, saying what to install, when there is none.
@Suite("PostgreSQL programs")
struct PostgresProgramsTests {
    @Test("without PostgreSQL, starting a cluster fails and says how to install it")
    func notInstalled() throws {
        let error = try #require(throws: PostgresCluster.Failure.self) {
            try PostgresPrograms.locate(debian: "/nonexistent/postgresql", path: "/nonexistent/bin")
        }
        #expect(error.description.hasPrefix("PostgreSQL is not installed"))
        #expect(error.description.contains("Scripts/bootstrap.sh --test"))
    }

    @Test("Debian's PostgreSQL is found under /usr/lib/postgresql")
    func newestVersion() throws {
        let programs = try PostgresPrograms.locate(path: "")
        #expect(programs.binaries.path.hasPrefix("/usr/lib/postgresql/"))
        #expect(FileManager.default.isExecutableFile(atPath: programs.binaries.appendingPathComponent("pg_ctl").path))
    }
}
