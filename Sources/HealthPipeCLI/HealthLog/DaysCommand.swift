import ArgumentParser
import Charts
import Foundation
import HealthPipeCore
import SQLiteStore

/// `healthpipe days`: the seed-002 day table — glucose low/avg/high and the Hypo, Hyper, Exercise,
/// Stress and Illness marks of every day with data, newest first, filtered as the seed's user does.
struct DaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days", abstract: "Print the day table (seed 002): each day's glucose low/avg/high and its marks, with filters.",
        discussion: "Filters combine: --hypo --exercise lists days that had both. --json prints the chart data of the `days` view.")

    @OptionGroup var log: LogOptions
    @Flag(help: "Days with a reading below the hypo threshold.") var hypo = false
    @Flag(help: "Days with a reading above the hyper threshold.") var hyper = false
    @Flag(help: "Days with exercise.") var exercise = false
    @Flag(help: "Days a stress episode touched.") var stress = false
    @Flag(help: "Days an illness episode touched.") var illness = false
    @Option(help: "Only the last N days (up to the last day with data, or --to).", transform: NumberRule.dayCount.flag) var last: NumberFlag?
    @Flag(help: "Favourite days only.") var favourites = false
    @OptionGroup var range: DayRange
    @OptionGroup var unit: UnitOption
    @Flag(help: "The table as JSON (schema healthpipe.chart.days).") var json = false

    func run() throws {
        let display = unit.unit
        let path = try log.existingStore()
        let q: ChartQueries
        do { q = try ChartQueries(path: path) } catch { throw usage("--db \(log.db): \(error)") }
        // Only plausible days (PlausibleTime): a day an old store keeps from a broken clock is skipped.
        let all = try q.dayLog(subject: log.who, fromDay: CivilDate.isoDate(fromDays: PlausibleTime.earliestDay),
                               toDay: CivilDate.isoDate(fromDays: PlausibleTime.latestDay - 1))
        let known = all.map(\.day)
        let span = known.isEmpty ? nil : (known.min()!, known.max()!)
        guard let days = try range.resolve(log, span: span) else {
            if json { try emit(DayTable(subject: log.who, firstDay: 0, lastDay: 0, unit: display, rows: []).json()) }
            return
        }
        let rows = all.filter { days.contains($0.day) }
        var filter = DayTable.Filter(lastDays: last?.int, favouritesOnly: favourites)
        for (flag, on) in [(DayTable.Flag.hypo, hypo), (.hyper, hyper), (.exercise, exercise), (.stress, stress), (.illness, illness)] where on {
            filter.flags.insert(flag)
        }
        let table = DayTable(subject: try log.who, firstDay: days.lowerBound, lastDay: days.upperBound, unit: display, rows: rows, filter: filter)
        if json { return try emit(table.json()) }
        var out = ""
        for r in table.shown {
            let date = CivilDate.isoDate(fromDays: r.day)
            let glucose = r.avg.map { _ in
                [r.low, r.avg, r.high].map { v in v.map { display.text($0) } ?? "-" }.joined(separator: " / ") + " \(display.rawValue)"
            } ?? "no glucose"
            // A meter user's day: the numbers are its finger-stick checks', and the line says so.
            let marks = DayTable.Flag.allCases.filter { r.has($0) }.map(\.rawValue)
                + (r.rangeFromChecks ? ["(\(r.checks) BG check\(r.checks == 1 ? "" : "s"))"] : [])
            out += "\(date)  \(glucose.padding(toLength: 26, withPad: " ", startingAt: 0))  \(marks.joined(separator: " "))"
                + (r.favourite ? "  ★" + (r.note.map { " \($0)" } ?? "") : "") + "\n"
        }
        print(out, terminator: "")
    }
}

/// `healthpipe favourite add|remove DAY`: the seed-002 star.
struct FavouriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourite", abstract: "Star a day (with a note) or take the star away; `healthpipe days --favourites` lists them.",
        subcommands: [FavouriteAdd.self, FavouriteRemove.self])
}

struct FavouriteAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Star a day (again: change its note).")
    @OptionGroup var log: LogOptions
    @Argument(help: "The day: YYYY-MM-DD, today or yesterday.") var day: String
    @Option(help: "A note for the day.") var note: String?

    func run() throws {
        let path = try log.existingStore()
        let now = Int64(Date().timeIntervalSince1970)
        let d = try log.day(day, flag: "day", now: now)
        try HealthLogEdits.addFavourite(path: path, subject: log.who, day: d, note: note, now: now)
        print("\(CivilDate.isoDate(fromDays: d)) starred" + (note.map { ": \($0)" } ?? ""))
    }
}

struct FavouriteRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take the star away from a day.")
    @OptionGroup var log: LogOptions
    @Argument(help: "The day: YYYY-MM-DD, today or yesterday.") var day: String

    func run() throws {
        let path = try log.existingStore()
        let d = try log.day(day, flag: "day", now: Int64(Date().timeIntervalSince1970))
        guard try HealthLogEdits.removeFavourite(path: path, subject: log.who, day: d) else {
            printError("\(CivilDate.isoDate(fromDays: d)) is not a favourite")
            throw ExitCode(1)
        }
        print("\(CivilDate.isoDate(fromDays: d)) unstarred")
    }
}
