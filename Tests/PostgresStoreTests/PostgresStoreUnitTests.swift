import HealthPipeCore
import Testing
@testable import PostgresStore

/// PostgresStore's pieces that need no server: a password never shown in any of the forms a user
/// names a database in, numbers read from PostgreSQL's text output, array literals, and which days
/// a refresh reads and replaces.
@Suite struct PostgresStoreUnitTests {
    @Test(arguments: [
        ("postgresql://hp:s3cr%40t@db:5432/cohort", ["s3cr%40t", "s3cr@t"]),
        ("postgres://hp:pw@db/cohort?sslmode=require", ["pw"]),
        ("postgresql://hp@db/cohort?password=p%26w&sslmode=require", ["p%26w", "p&w"]),
        ("host=db dbname=cohort password='it\\'s x' user=hp", ["it\\'s x", "it's x"]),
        ("host=db password = plain dbname=c", ["plain"]),
    ])
    func passwordsAreNeverShown(conninfo: String, secrets: [String]) {
        let url = PostgresURL(conninfo, environment: [:])
        for secret in secrets {
            #expect(!url.shown.contains(secret), "\(url.shown)")
            #expect(!url.redact("FATAL: password \(secret) rejected").contains(secret))
        }
        #expect(url.shown.contains("***"))
    }

    @Test func pgpasswordIsRedactedToo() {
        let url = PostgresURL("postgresql://hp@db/c", environment: ["PGPASSWORD": "from-env"])
        #expect(url.redact("connect failed: from-env") == "connect failed: ***")
        #expect(PostgresURL(nil, environment: [:]).shown == "PostgreSQL (PG* variables)")
    }

    @Test func urlsAreToldFromPaths() {
        #expect(PostgresURL.isURL("postgresql://x/y") && PostgresURL.isURL("postgres://x/y"))
        #expect(!PostgresURL.isURL("health.sqlite") && !PostgresURL.isURL("./postgresql:/x"))
    }

    @Test func numbersFromTextOutput() {
        func int(_ s: String) -> Int64 { Array(s.utf8).withUnsafeBytes { PGText.int($0) } }
        func double(_ s: String) -> Double { Array(s.utf8).withUnsafeBytes { PGText.double($0) } }
        #expect(int("0") == 0 && int("-86400") == -86_400 && int("9223372036854775807") == .max)
        #expect(double("5.6") == 5.6 && double("-0.1") == -0.1 && double("1e-7") == 1e-7)
        #expect(double("0.30000000000000004") == 0.1 + 0.2)
        #expect(double("Infinity") == .infinity && double("NaN").isNaN)
        let long = String(repeating: "1", count: 40)
        #expect(double(long) == Double(long))
    }

    @Test func arrayLiteralsQuoteEveryElement() {
        #expect(PGArray.text([]) == "{}")
        #expect(PGArray.text(["a", "b c", "q\"uote", "back\\slash", "NULL"]) == #"{"a","b c","q\"uote","back\\slash","NULL"}"#)
    }

    @Test func refreshReadsTheMarginAndReplacesTheGridAroundPendingDays() {
        var p = PostgresPendingDays()
        p.days = ["ann": [100, 101, 110]]
        p.whole = ["bob"]
        p.marginDays = 2
        #expect(p.subjects == ["ann", "bob"] && !p.isEmpty)
        #expect(p.readRanges("ann") == [98...103, 108...112])
        #expect(p.readRanges("bob") == nil)
        #expect(p.gridRanges("ann") == [99...102, 109...111])
        #expect(p.contains(Symbol("ann"), day: 101) && !p.contains(Symbol("ann"), day: 102) && p.contains(Symbol("bob"), day: 5))
        #expect(!p.containsWhole(Symbol("ann")) && p.containsWhole(Symbol("bob")))
        p.wholeSubjects = true
        #expect(p.readRanges("ann") == nil && p.containsWhole(Symbol("ann")))
        #expect(p.rows.subjects == ["bob", "ann", "ann", "ann"] && p.rows.days.first == "*")
    }
}
