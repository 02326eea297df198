import Foundation
import Testing

/// The CLI as swift-argument-parser intends (issue 23, item 5): typed options list their values in
/// `--help` and refuse a wrong one naming the option and every value; each chart view is a
/// subcommand with only its own options; `--db` and `--subject` read the same everywhere.
@Suite struct CLIOptionsTests {
    /// `--help` of each command with a one-of-a-few option lists the values.
    @Test(arguments: [
        (["import"], "--on-error", "(values: fail, skip, quarantine; default: quarantine)"),
        (["stream"], "--on-error", "(values: fail, skip, quarantine; default: quarantine)"),
        (["history"], "--period", "(values: week, month, year; default: week)"),
        (["chart", "history"], "--period", "(values: week, month, year; default: week)"),
        (["chart", "day"], "--unit", "(values: mmol/L, mg/dL; default: mmol/L)"),
        (["chart", "day"], "--basal", "(values: on, off; default: on)"),
        (["chart", "day"], "--model", "(values: ar2, ridge, ridge-treatments, none; default: ridge)"),
        (["chart", "agp"], "--unit", "(values: mmol/L, mg/dL; default: mmol/L)"),
        (["chart", "days"], "--filter", "(values: hypo, hyper, exercise, stress, illness)"),
        (["page"], "--basal", "(values: on, off; default: on)"),
        (["days"], "--unit", "(values: mmol/L, mg/dL; default: mmol/L)"),
        (["import"], "--preset", "(values: consensus, range, seeds)"),
        (["chart", "days"], "--preset", "(values: consensus, range, seeds)"),
        (["metrics"], "--per", "(values: day, period; default: day)"),
        (["evaluate"], "--model", "(values: ar2, ridge, ridge-treatments)"),
        (["entries", "list"], "--kind", "(values: insulin, meal, exercise, illness, stress)"),
        (["add", "exercise"], "--intensity", "(values: light, medium, heavy)"),
        (["entries", "edit"], "--intensity", "(values: light, medium, heavy)"),
        (["stream"], "--format", "(values: csv, tsv, float32, int16)"),
        (["stream"], "--units", "(values: g, m/s2)"),
        (["stream"], "--checksum", "(values: none, xor8, sum8)"),
        (["stream"], "--start-on", "(values: movement, immediate)"),
    ])
    func helpListsTheValues(command: [String], option: String, values: String) throws {
        let r = try E2E.run(command + ["--help"])
        #expect(r.code == 0)
        // Help wraps at 80 columns: compare with the whitespace folded.
        let help = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let entry = help.components(separatedBy: " \(option) <").dropFirst().first ?? ""
        #expect(entry.contains(values), "\(command) \(option): \(r.stdout)")
    }

    /// `chart --help` lists the views; each view's help holds only its own options.
    @Test func eachViewTakesOnlyItsOwnOptions() throws {
        let chart = try E2E.run(["chart", "--help"])
        for view in ["day", "agp", "days", "history", "report-values", "report-days"] {
            #expect(chart.stdout.contains("\n  \(view) "), "\(view): \(chart.stdout)")
        }
        let only: [String: (has: [String], hasNot: [String])] = [
            "day": (["--date", "--from", "--unit", "--basal", "--model", "--preset", "--today", "--svg"],
                    ["--filter", "--last", "--favourites", "--period", "--offset", "--metric"]),
            "agp": (["--date", "--from", "--to", "--unit", "--svg"], ["--basal", "--model", "--filter", "--period", "--metric"]),
            "days": (["--filter", "--last", "--favourites", "--unit", "--preset"], ["--basal", "--model", "--period", "--metric"]),
            "history": (["--period", "--offset", "--date", "--today"], ["--unit", "--basal", "--model", "--filter", "--metric"]),
            "report-values": (["--metric", "--date"], ["--unit", "--basal", "--filter", "--period", "--from"]),
            "report-days": (["--from", "--to"], ["--unit", "--basal", "--filter", "--period", "--metric"]),
        ]
        for (view, options) in only {
            let help = try E2E.run(["chart", view, "--help"]).stdout
            for o in options.has { #expect(help.contains(" \(o) ") || help.contains(" \(o)\n"), "chart \(view) lacks \(o)") }
            for o in options.hasNot { #expect(!help.contains(" \(o) "), "chart \(view) shows \(o)") }
        }
    }

    /// A wrong value is a usage mistake (exit 2) that names the option, the value and every value.
    @Test(arguments: [
        (["import", "x.csv", "--db", "x.sqlite", "--on-error", "maybe"], ["'maybe' is invalid for '--on-error", "'fail', 'skip' or 'quarantine'"]),
        (["chart", "history", "--db", "x.sqlite", "--period", "fortnight"], ["'fortnight' is invalid for '--period", "'week', 'month' or 'year'"]),
        (["history", "--db", "x.sqlite", "--period", "fortnight"], ["'fortnight' is invalid for '--period", "'week', 'month' or 'year'"]),
        (["chart", "day", "--db", "x.sqlite", "--unit", "kelvin"], ["'kelvin' is invalid for '--unit", "'mmol/L' and 'mg/dL'"]),
        (["chart", "day", "--db", "x.sqlite", "--basal", "maybe"], ["'maybe' is invalid for '--basal", "'on' and 'off'"]),
        (["chart", "day", "--db", "x.sqlite", "--model", "lstm"], ["'lstm' is invalid for '--model", "'ridge-treatments'"]),
        (["chart", "days", "--db", "x.sqlite", "--filter", "happy"], ["'happy' is invalid for '--filter", "'hypo', 'hyper', 'exercise', 'stress' or 'illness'"]),
        (["import", "x.csv", "--db", "x.sqlite", "--preset", "loose"], ["'loose' is invalid for '--preset", "'consensus', 'range' or 'seeds'"]),
        (["metrics", "--db", "x.sqlite", "--per", "week"], ["'week' is invalid for '--per", "'day' and 'period'"]),
        (["entries", "list", "--db", "x.sqlite", "--kind", "report"], ["'report' is invalid for '--kind", "'insulin', 'meal', 'exercise', 'illness' or 'stress'"]),
        (["stream", "--replay", "x.csv", "--checksum", "crc"], ["'crc' is invalid for '--checksum", "'none', 'xor8' or 'sum8'"]),
        (["chart", "week", "--db", "x.sqlite"], ["unknown view 'week': day, agp, days, history, report-values or report-days"]),
        (["chart", "--db", "x.sqlite", "day"], ["the view comes first: healthpipe chart day"]),
        (["chart", "day", "--db", "x.sqlite", "--filter", "hypo"], ["Unknown option '--filter'"]),
    ])
    func aWrongValueNamesTheOptionAndItsValues(args: [String], words: [String]) throws {
        let dir = E2E.tempDir()
        let r = try E2E.run(args, cwd: dir)
        #expect(r.code == 2, "\(args): \(r.stderr)")
        for w in words { #expect(r.stderr.contains(w), "\(args): \(r.stderr)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "a usage mistake writes nothing")
    }

    /// The other spellings of a unit are still read (`GlucoseUnit`), only the canonical ones listed.
    @Test func aUnitIsReadInAnySpelling() throws {
        let db = try ChartFixture.db()
        let canonical = try E2E.run(["chart", "agp", "--db", db.path, "--unit", "mg/dL"])
        let other = try E2E.run(["chart", "agp", "--db", db.path, "--unit", "MGDL"])
        #expect(canonical.code == 0 && other.code == 0 && canonical.stdout == other.stdout, "\(other.stderr)")
    }

    /// `--db` of a missing file: the same one check and message wherever a database is read.
    @Test func aMissingDatabaseIsSaidTheSameWay() throws {
        let dir = E2E.tempDir()
        let none = dir.appendingPathComponent("none.sqlite").path
        for (args, hint) in [(["chart", "day"], "(create it with `healthpipe import FILE --db \(none)`)"),
                             (["page"], "(create it with `healthpipe import FILE --db \(none)`)"),
                             (["history"], "(store sessions with `healthpipe stream --db \(none)` first)"),
                             (["reaggregate"], ""), (["metrics"], "")] {
            let r = try E2E.run(args + ["--db", none])
            #expect(r.code == 1 && r.stderr.contains("\(none): no such database\(hint.isEmpty ? "" : " " + hint)"), "\(args): \(r.stderr)")
        }
        let log = try E2E.run(["entries", "list", "--db", none])
        #expect(log.code == 2 && log.stderr.contains("--db \(none): no such database"), "\(log.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
