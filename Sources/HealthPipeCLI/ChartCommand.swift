import ArgumentParser
import Charts
import Foundation
import HealthPipeCore
import SQLiteStore

struct ChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Print one view's chart data as JSON (day, agp, days, history), or draw it as a standalone SVG.",
        discussion: """
        day: the bifocal day view (glucose, bands, meals/exercise/insulin, 30-minute forecast, the 3 days before and after);
        --date D (default: the last day with readings), or --from/--to for one JSON object per day, one per line.
        agp: the AGP report of a period (default: the 14 days ending at the last day with readings, or at --date).
        days: the day table (default: the last 90 days) with --filter hypo|hyper|exercise|stress|illness (repeatable),
        --last N and --favourites. history: toothbrushing sessions by --period week|month|year and --offset.
        report-values: one health value of the reports over the week ending at --date (default: the last day with a
        report), --metric M (default: the value reported most that week). report-days: reports per day, --from/--to
        (default: the 30 days ending at the last day with a report).
        Schemas: docs/charts.md. --svg FILE writes the view as SVG instead of printing JSON.
        """)

    @Argument(help: "The view: day, agp, days, history, report-values or report-days.") var view: String
    @OptionGroup var options: ChartOptions
    @Option(help: "The day (day view), or the last day of the period (agp, days), YYYY-MM-DD.") var date: String?
    @Option(help: "First day of the period, YYYY-MM-DD.") var from: String?
    @Option(help: "Last day of the period, YYYY-MM-DD.") var to: String?
    @Option(help: "Write the view as a standalone SVG file instead of printing JSON.") var svg: String?
    @Option(name: .customLong("filter"), help: "days: keep days with this mark (hypo, hyper, exercise, stress, illness); repeatable.")
    var filters: [String] = []
    @Option(help: "days: only the last N days.") var last: Int?
    @Flag(help: "days: favourites only.") var favourites = false
    @Option(help: "history: week, month or year.") var period: String = "week"
    @Option(parsing: .unconditional, help: "history: periods before (negative) or after the one holding --date.") var offset: Int = 0
    @Option(help: "report-values: the health value, e.g. body_temperature.") var metric: String?

    func run() throws {
        guard ["day", "agp", "days", "history", "report-values", "report-days"].contains(view) else {
            throw configFailure(ValidationError("unknown view '\(view)': day, agp, days, history, report-values or report-days"))
        }
        if let svg {
            try refuseFileClash([FileRole(.store, try options.databasePath(), what: "database"),
                                 FileRole(.output, ComponentBuilder.resolve(svg, base: FileManager.default.currentDirectoryPath), what: "SVG output")])
        }
        if view.hasPrefix("report-") { return try reportView() }
        let settings = try options.settings()
        if view == "history" { return try history() }
        let (loader, lastDay) = try options.openLoader(settings)
        switch view {
        case "day":
            if from != nil || to != nil {
                let p = try ChartOptions.period(from: from, to: to, date: date, length: 1, lastDay: lastDay)
                guard svg == nil || p.first == p.last else { throw configFailure(ValidationError("--svg draws one day: give --date")) }
                let views = try loader.dayViews(p.first...p.last)
                if let svg { return try writeOutput(DaySVG(view: views[0]).document(), to: svg) }
                for v in views { try emit(v.json()) }
            } else {
                let d = try date.map { try ChartOptions.day($0, option: "--date") } ?? lastDay
                let v = try loader.dayView(d)
                if let svg { return try writeOutput(DaySVG(view: v).document(), to: svg) }
                try emit(v.json())
            }
        case "agp":
            let p = try ChartOptions.period(from: from, to: to, date: date, length: 14, lastDay: lastDay)
            let v = try loader.agp(firstDay: p.first, lastDay: p.last)
            if let svg { return try writeOutput(AGPSVG(view: v).document(), to: svg) }
            try emit(v.json())
        default:
            let p = try ChartOptions.period(from: from, to: to, date: date, length: 90, lastDay: lastDay)
            var filter = DayTable.Filter(lastDays: last, favouritesOnly: favourites)
            for f in filters {
                guard let flag = DayTable.Flag(rawValue: f) else {
                    throw configFailure(ValidationError("--filter is hypo, hyper, exercise, stress or illness (got '\(f)')"))
                }
                filter.flags.insert(flag)
            }
            if let n = last, n < 1 { throw configFailure(ValidationError("--last is a number of days ≥ 1")) }
            let table = try loader.dayTable(firstDay: p.first, lastDay: p.last, filter: filter)
            if let svg { return try writeOutput(DayTableSVG(table: table, bands: try loader.bands(around: p.last)).document(), to: svg) }
            try emit(table.json())
        }
    }

    /// The seed-004 graphs: they need reports, not glucose.
    func reportView() throws {
        let path = try options.databasePath()
        let queries: HealthLogQueries
        do { queries = try HealthLogQueries(path: path) } catch {
            printError("\(options.db): \(error)")
            throw ExitCode(1)
        }
        let data = ReportChartData(queries: queries, path: path,
                                   subject: try SubjectRule.resolve(options.subject, database: path, label: options.db))
        let name = try metric.map { m -> String in
            guard let n = HealthValues.metricName(m) else { throw configFailure(ValidationError("--metric \(m): not a health value name")) }
            return n
        }
        let day = { (text: String?, option: String) throws -> Int64? in try text.map { try ChartOptions.day($0, option: option) } }
        if view == "report-values" {
            guard let v = try data.values(metric: name, lastDay: try day(date, "--date")) else {
                printError("\(options.db): no health reports" + (options.subject.map { " for subject \($0)" } ?? ""))
                throw ExitCode(1)
            }
            if let svg { return try writeOutput(ReportValuesSVG(view: v).document(), to: svg) }
            return try emit(v.json())
        }
        guard let v = try data.days(first: try day(from, "--from"), last: try day(to ?? date, to != nil ? "--to" : "--date")) else {
            printError("\(options.db): no health reports" + (options.subject.map { " for subject \($0)" } ?? ""))
            throw ExitCode(1)
        }
        if v.firstDay > v.lastDay { throw configFailure(ValidationError("--from is after --to")) }
        if let svg { return try writeOutput(ReportDaysSVG(view: v).document(), to: svg) }
        try emit(v.json())
    }

    /// The toothbrushing history (seed 003), as `healthpipe history` computes it.
    func history() throws {
        guard let p = HistoryChart.Period(rawValue: period) else {
            throw configFailure(ValidationError("--period is week, month or year (got '\(period)')"))
        }
        let path = try options.databasePath()
        let subject = try SubjectRule.resolve(options.subject, database: path, label: options.db)
        let anchor: Int64
        if let date {
            anchor = try ChartOptions.day(date, option: "--date")
        } else if let latest = try BrushingHistory.latest(path: path, subject: subject) {
            anchor = LocalDays.day(latest.start, latest.utcOffset)
        } else {
            anchor = try options.settings().today ?? CivilDate.floorDiv(Clock.nowSeconds(), 86_400)
        }
        let chart = try HistoryData.chart(path: path, subject: subject, period: p, offset: offset, anchor: anchor)
        if let svg { return try writeOutput(HistorySVG(chart: chart).document(), to: svg) }
        try emit(chart.json(subject: subject))
    }
}

/// Stored sessions → the history chart of one period (shared by `history`, `chart history` and `page`).
enum HistoryData {
    static func chart(path: String, subject: String, period: HistoryChart.Period, offset: Int, anchor: Int64) throws -> HistoryChart {
        guard abs(offset) <= HistoryChart.maxOffset else {
            throw configFailure(ValidationError("--offset \(offset): at most \(HistoryChart.maxOffset) periods either way"))
        }
        let (first, last) = HistoryChart.range(period: period, offset: offset, today: anchor)
        // Over-fetch by the widest UTC offsets; the chart buckets by each row's own local day.
        let window = LocalDays.utcBounds(firstDay: first, lastDay: last)
        let rows = try BrushingHistory.rows(path: path, subject: subject, from: window.from, to: window.to)
        let entries = rows.map {
            HistoryChart.Entry(start: $0.start, end: $0.end, utcOffset: $0.utcOffset, average: $0.average,
                               accomplishment: $0.accomplishment, origin: $0.origin)
        }
        return HistoryChart.build(period: period, offset: offset, today: anchor, entries: entries)
    }
}
