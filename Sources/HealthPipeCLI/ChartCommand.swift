import ArgumentParser
import Charts
import Foundation
import HealthPipeCore
import SQLiteStore

/// `healthpipe chart VIEW`: one view's chart data as JSON, or as a standalone SVG with `--svg`. Each
/// view is a subcommand with only its own options (`healthpipe chart day --help`).
struct ChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Print one view's chart data as JSON (day, agp, days, history, report-values, report-days), or draw it as a standalone SVG.",
        discussion: "Schemas: docs/charts.md. --svg FILE writes the view as SVG instead of printing JSON.",
        subcommands: [DayChart.self, AGPChart.self, DaysChart.self, HistoryChartCommand.self,
                      ReportValuesChart.self, ReportDaysChart.self])

    static let views = configuration.subcommands.map { $0._commandName }

    /// `chart` followed by anything but a view: said with the views (the parser alone would name
    /// the first option it does not know). Run before parsing; a view or help passes.
    static func checkView(_ arguments: [String]) throws {
        guard arguments.first == commandName else { return }
        let list = views.dropLast().joined(separator: ", ") + " or " + views.last!
        guard arguments.count > 1 else { throw configFailure(ValidationError("give a view: \(list)")) }
        let first = arguments[1]
        guard !views.contains(first), !["-h", "--help", "help", "--version"].contains(first) else { return }
        if let view = arguments.first(where: views.contains) {
            throw configFailure(ValidationError("the view comes first: healthpipe chart \(view) [options] (views: \(list))"))
        }
        throw configFailure(ValidationError(first.hasPrefix("-") ? "give a view: \(list)" : "unknown view '\(first)': \(list)"))
    }

    static var commandName: String { configuration.commandName! }
}

/// What every view takes: the store, whose data, and where an SVG goes.
struct ChartOutputOptions: ParsableArguments {
    @OptionGroup var options: ChartOptions
    @Option(help: "Write the view as a standalone SVG file instead of printing JSON.") var svg: String?

    /// Before anything is read: the SVG never overwrites the database (nor the database the SVG).
    func refuseClash() throws {
        guard let svg, let database = try options.sqlitePath() else { return }
        try refuseFileClash([FileRole(.store, database, what: "database"),
                             FileRole(.output, ComponentBuilder.resolve(svg, base: FileManager.default.currentDirectoryPath), what: "SVG output")])
    }

    /// The SVG to `--svg`, else the JSON to standard output.
    func write(svg document: @autoclosure () throws -> String, json: @autoclosure () throws -> [UInt8]) throws {
        if let svg { return try writeOutput(try document(), to: svg) }
        try emit(try json())
    }
}

/// What the glucose views (day, agp, days) take: the store and output, the period, the unit.
struct GlucoseChartOptions: ParsableArguments {
    @OptionGroup var output: ChartOutputOptions
    @OptionGroup var period: ChartPeriodOptions
    @OptionGroup var unit: UnitOption

    /// The loader over the store (after the SVG check) and the last day with readings.
    func open(preset: PresetOption? = nil, day: DayViewOptions? = nil) throws -> (loader: ChartLoader, lastDay: Int64) {
        try output.refuseClash()
        return try output.options.openLoader(try output.options.settings(unit: unit, preset: preset, day: day))
    }
}

/// `--date`, or `--from`/`--to`, of the glucose views.
struct ChartPeriodOptions: ParsableArguments {
    @Option(help: "The day (day view), or the last day of the period, YYYY-MM-DD.") var date: String?
    @Option(help: "First day of the period, YYYY-MM-DD.") var from: String?
    @Option(help: "Last day of the period, YYYY-MM-DD.") var to: String?

    func period(length: Int, lastDay: Int64) throws -> (first: Int64, last: Int64) {
        try ChartOptions.period(from: from, to: to, date: date, length: length, lastDay: lastDay)
    }
}

struct DayChart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "The bifocal day view: glucose, bands, meals/exercise/insulin, the 30-minute forecast, the 3 days before and after.",
        discussion: "--date D (default: the last day with readings), or --from/--to for one JSON object per day, one per line.")

    @OptionGroup var chart: GlucoseChartOptions
    @OptionGroup var preset: PresetOption
    @OptionGroup var view: DayViewOptions

    func run() throws {
        let (loader, lastDay) = try chart.open(preset: preset, day: view)
        let (output, period) = (chart.output, chart.period)
        if period.from != nil || period.to != nil {
            let p = try period.period(length: 1, lastDay: lastDay)
            guard output.svg == nil || p.first == p.last else { throw configFailure(ValidationError("--svg draws one day: give --date")) }
            let views = try loader.dayViews(p.first...p.last)
            if let svg = output.svg { return try writeOutput(DaySVG(view: views[0]).document(), to: svg) }
            for v in views { try emit(v.json()) }
        } else {
            let d = try period.date.map { try ChartOptions.day($0, option: "--date") } ?? lastDay
            let v = try loader.dayView(d)
            try output.write(svg: DaySVG(view: v).document(), json: v.json())
        }
    }
}

struct AGPChart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agp",
        abstract: "The AGP report of a period (default: the 14 days ending at the last day with readings, or at --date).")

    @OptionGroup var chart: GlucoseChartOptions

    func run() throws {
        let (loader, lastDay) = try chart.open()
        let p = try chart.period.period(length: 14, lastDay: lastDay)
        let v = try loader.agp(firstDay: p.first, lastDay: p.last)
        try chart.output.write(svg: AGPSVG(view: v).document(), json: v.json())
    }
}

struct DaysChart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days",
        abstract: "The day table (default: the 90 days ending at the last day with readings, or at --date).")

    @OptionGroup var chart: GlucoseChartOptions
    @OptionGroup var preset: PresetOption
    @Option(name: .customLong("filter"), help: "Keep days with this mark (repeatable).") var filters: [DayTable.Flag] = []
    @Option(help: "Only the last N days.", transform: NumberRule.dayCount.flag) var last: NumberFlag?
    @Flag(help: "Favourites only.") var favourites = false

    func run() throws {
        let (loader, lastDay) = try chart.open(preset: preset)
        let p = try chart.period.period(length: 90, lastDay: lastDay)
        var filter = DayTable.Filter(lastDays: last?.int, favouritesOnly: favourites)
        filter.flags.formUnion(filters)
        let table = try loader.dayTable(firstDay: p.first, lastDay: p.last, filter: filter)
        if let svg = chart.output.svg { return try writeOutput(DayTableSVG(table: table, bands: try loader.bands(around: p.last)).document(), to: svg) }
        try emit(table.json())
    }
}

/// The toothbrushing history (seed 003), as `healthpipe history` computes it.
struct HistoryChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Toothbrushing sessions of a week, month or year (default: the period holding the newest session, or --date).")

    @OptionGroup var output: ChartOutputOptions
    @Option(help: "A day of the period, YYYY-MM-DD.") var date: String?
    @Option(help: "The period's length.") var period: HistoryChart.Period = .week
    @Option(parsing: .unconditional, help: "Periods before (negative) or after the one holding --date.", transform: NumberRule.periodOffset.flag) var offset: NumberFlag = NumberFlag(0, .periodOffset)
    @OptionGroup var today: TodayOption

    func run() throws {
        try output.refuseClash()
        let options = output.options
        let path = try options.databasePath()
        let subject = try SubjectRule.resolve(options.subject, database: path, label: options.db)
        let anchor: Int64
        if let date {
            anchor = try ChartOptions.day(date, option: "--date")
        } else if let latest = try BrushingHistory.latest(path: path, subject: subject) {
            anchor = LocalDays.day(latest.start, latest.utcOffset)
        } else {
            anchor = try today.day() ?? CivilDate.floorDiv(Clock.nowSeconds(), 86_400)
        }
        let chart = try HistoryData.chart(path: path, subject: subject, period: period, offset: offset.int, anchor: anchor)
        try output.write(svg: HistorySVG(chart: chart).document(), json: chart.json(subject: subject))
    }
}

/// Stored sessions → the history chart of one period (shared by `history`, `chart history` and `page`).
enum HistoryData {
    static func chart(path: String, subject: String, period: HistoryChart.Period, offset: Int, anchor: Int64) throws -> HistoryChart {
        // `offset` passed NumberRule.periodOffset (the flags' transform), which is HistoryChart.maxOffset either way.
        let (first, last) = HistoryChart.range(period: period, offset: offset, today: anchor)
        // Over-fetch by the widest UTC offsets; the chart buckets by each row's own local day.
        let window = LocalDays.utcBounds(firstDay: first, lastDay: last)
        let sessions = try BrushingHistory.rows(path: path, subject: subject, from: window.from, to: window.to)
        return HistoryChart.build(period: period, offset: offset, today: anchor, entries: sessions)
    }
}
