import Testing

@testable import Store

/// `--store` and `SEARCHLIGHT_STORE` values: paths, PostgreSQL URLs as libpq reads them, and located errors.
@Suite("store locations")
struct StoreLocationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var value: String
        var environment: [String: String] = [:]
        var user: String
        var password: String?
        var host: String
        var port = 5432
        var database: String
        var sslMode = PostgresLocation.SSLMode.prefer
        var testDescription: String { value }
    }

    @Test(
        "a path names a SQLite file",
        arguments: [
            "./searchlight.sqlite", "/var/lib/store.db", "relative/dir/x.sqlite", "file:name", "a:b//c", "ü.db",
        ])
    func paths(value: String) throws {
        #expect(try StoreLocation(parsing: value) == .sqlite(path: value))
    }

    @Test(
        "a postgres URL is read as libpq reads it",
        arguments: [
            Case(
                value: "postgres://u@db.example:6000/crawl", user: "u", host: "db.example", port: 6000,
                database: "crawl"),
            Case(value: "postgresql://u@db.example/crawl", user: "u", host: "db.example", database: "crawl"),
            Case(value: "POSTGRES://u@h/d", user: "u", host: "h", database: "d"),
            Case(value: "postgres://u:secret@h/d", user: "u", password: "secret", host: "h", database: "d"),
            Case(value: "postgres://u@h:/d", user: "u", host: "h", database: "d"),
            Case(value: "postgres://u@h", user: "u", host: "h", database: "u"),
            Case(value: "postgres://u@h/", user: "u", host: "h", database: "u"),
            Case(
                value: "postgres://u@h/d", environment: ["PGPASSWORD": "from-env"], user: "u", password: "from-env",
                host: "h", database: "d"),
            Case(
                value: "postgres://u:url@h/d", environment: ["PGPASSWORD": "from-env"], user: "u", password: "url",
                host: "h", database: "d"),
            Case(value: "postgres://u@h/d", environment: ["PGPASSWORD": ""], user: "u", host: "h", database: "d"),
            Case(
                value: "postgres://us%40er:p%3Aa%2Fss%40w%23rd%25@h/d%20b", user: "us@er", password: "p:a/ss@w#rd%",
                host: "h", database: "d b"),
            Case(value: "postgres://%C3%BCser:%E2%82%AC@h/d", user: "üser", password: "€", host: "h", database: "d"),
            Case(value: "postgres://u:@h/d", user: "u", password: "", host: "h", database: "d"),
            Case(value: "postgres://u@[::1]:5433/d", user: "u", host: "::1", port: 5433, database: "d"),
            Case(value: "postgres://u@[fe80::1]/d", user: "u", host: "fe80::1", database: "d"),
            Case(value: "postgres://u@127.0.0.1:1/d", user: "u", host: "127.0.0.1", port: 1, database: "d"),
            Case(value: "postgres://u@h:65535/d", user: "u", host: "h", port: 65535, database: "d"),
            Case(
                value: "postgres://u@h/d?sslmode=disable", user: "u", host: "h", database: "d", sslMode: .disable),
            Case(
                value: "postgres://u@h/d?sslmode=verify-full&application_name=x", user: "u", host: "h",
                database: "d", sslMode: .verifyFull),
            Case(
                value: "postgres://h/d?user=u&password=p&port=7000&dbname=other", user: "u", password: "p",
                host: "h", port: 7000, database: "other"),
            Case(
                value: "postgres://u@%2Fvar%2Frun%2Fpostgresql/d", user: "u", host: "/var/run/postgresql",
                database: "d"),
            Case(value: "postgres://u@/d?host=/tmp/sock", user: "u", host: "/tmp/sock", database: "d"),
        ])
    func urls(_ test: Case) throws {
        let location = try StoreLocation(parsing: test.value, environment: test.environment)
        guard case .postgres(let postgres) = location else {
            Issue.record("\(test.value) was read as \(location)")
            return
        }
        #expect(postgres.user == test.user)
        #expect(postgres.password == test.password)
        #expect(postgres.host == test.host)
        #expect(postgres.port == test.port)
        #expect(postgres.database == test.database)
        #expect(postgres.sslMode == test.sslMode)
    }

    @Test(
        "a malformed value is refused, naming what is wrong",
        arguments: [
            ("", StoreLocationError.Problem.empty),
            ("mysql://u@h/d", .unsupportedScheme("mysql")),
            ("postgress://u@h/d", .unsupportedScheme("postgress")),
            ("postgres://h/d", .missingUser),
            ("postgres://:pw@h/d", .missingUser),
            ("postgres://u@/d", .missingHost),
            ("postgres://u@h1,h2/d", .severalHosts),
            ("postgres://u:p@ss@h/d", .atSignInHost),
            ("postgres://u@::1/d", .malformedIPv6),
            ("postgres://u@[::1/d", .malformedIPv6),
            ("postgres://u@[::1]x/d", .malformedIPv6),
            ("postgres://u@h:0/d", .badPort("0")),
            ("postgres://u@h:65536/d", .badPort("65536")),
            ("postgres://u@h:54x/d", .badPort("54x")),
            ("postgres://u@h:+54/d", .badPort("+54")),
            ("postgres://u@h:٥٤٣٢/d", .badPort("٥٤٣٢")),
            ("postgres://u:p%zz@h/d", .badPercentEncoding(part: "password")),
            ("postgres://u:p%4@h/d", .badPercentEncoding(part: "password")),
            ("postgres://u%00@h/d", .badPercentEncoding(part: "user")),
            ("postgres://u%FF@h/d", .badPercentEncoding(part: "user")),
            ("postgres://u@h/d%", .badPercentEncoding(part: "database name")),
            ("postgres://u:p#w@h/d", .fragment),
            ("postgres://u@h/d?sslmode", .parameterWithoutValue("sslmode")),
            (
                "postgres://u@h/d?sslmode=sometimes",
                .badParameterValue(name: "sslmode", value: "sometimes", expected: "")
            ),
            (
                "postgres://u@h/d?connect_timeout=0",
                .badParameterValue(name: "connect_timeout", value: "0", expected: "")
            ),
            ("postgres://u@h/d?target_session_attrs=any", .unknownParameter("target_session_attrs")),
        ])
    func malformed(value: String, problem: StoreLocationError.Problem) {
        #expect {
            try StoreLocation(parsing: value, environment: ["PGPASSWORD": "x"])
        } throws: { error in
            guard let error = error as? StoreLocationError else { return false }
            if case .badParameterValue(let name, let value, _) = problem,
                case .badParameterValue(name, value, _) = error.problem
            {
                return true
            }
            return error.problem == problem
        }
    }

    @Test("an error message is one line and never shows the password")
    func messagesHidePasswords() throws {
        for value in ["postgres://u:hunter2%zz@h/d", "postgres://u:hunter2@h1,h2/d", "postgres://u:hunter2@h:99999/d"] {
            let error = try #require(throws: StoreLocationError.self) { try StoreLocation(parsing: value) }
            #expect(!error.description.contains("hunter2"), "\(error)")
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("--store: "))
        }
        let location = try StoreLocation(parsing: "postgres://u:hunter2@db:5999/crawl?sslmode=require")
        #expect(location.description == "postgres://u@db:5999/crawl?sslmode=require")
        let ipv6 = try StoreLocation(parsing: "postgres://u%20x:pw@[::1]/d%2Fe")
        #expect(ipv6.description == "postgres://u%20x@[::1]:5432/d%2Fe")
    }

    @Test("--store wins over SEARCHLIGHT_STORE, which wins over the default file")
    func precedence() throws {
        let environment = ["SEARCHLIGHT_STORE": "/from/env.sqlite"]
        #expect(
            try StoreLocation(option: "/from/option.sqlite", environment: environment)
                == .sqlite(path: "/from/option.sqlite"))
        #expect(try StoreLocation(option: nil, environment: environment) == .sqlite(path: "/from/env.sqlite"))
        #expect(try StoreLocation(option: nil, environment: [:]) == .sqlite(path: "./searchlight.sqlite"))
        #expect(
            try StoreLocation(option: nil, environment: ["SEARCHLIGHT_STORE": ""])
                == .sqlite(path: "./searchlight.sqlite"))
        let error = try #require(throws: StoreLocationError.self) {
            try StoreLocation(option: nil, environment: ["SEARCHLIGHT_STORE": "postgres://nobody/d"])
        }
        #expect(error.description.hasPrefix("SEARCHLIGHT_STORE: "))
        #expect(error.problem == .missingUser)
    }
}
