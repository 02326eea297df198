import ArgumentParser
import Charts
import Foundation
import HealthPipeCore
import SQLiteStore

struct PageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract: "Write ONE self-contained HTML page with every view (day, AGP report, day table, toothbrushing history).",
        discussion: """
        Every view is drawn as SVG inside the file: it opens without a network or a server, reads with JavaScript off,
        and prints on A4 (the AGP report on one page). The period defaults to the 14 days ending at the last day with
        readings; each of its days gets a day view (previous/next links, a date picker with JavaScript on).
        """)

    @OptionGroup var options: ChartOptions
    @OptionGroup var unit: UnitOption
    @OptionGroup var preset: PresetOption
    @OptionGroup var view: DayViewOptions
    @Option(help: "First day of the period, YYYY-MM-DD.") var from: String?
    @Option(help: "Last day of the period, YYYY-MM-DD.") var to: String?
    @Option(name: [.short, .customLong("output")], help: "The HTML file to write.") var output: String = "health.html"
    @Option(name: .customLong("table-days"), help: "Days in the day table, ending at the period's last day (at least the period).",
            transform: NumberRule.dayCount.flag)
    var tableDays: NumberFlag = NumberFlag(90, .dayCount)

    func run() throws {
        let sqlite = try options.sqlitePath()
        try refuseFileClash((sqlite.map { [FileRole(.store, $0, what: "database")] } ?? []) + [
                             FileRole(.output, ComponentBuilder.resolve(output, base: FileManager.default.currentDirectoryPath), what: "HTML page")])
        let settings = try options.settings(unit: unit, preset: preset, day: view)
        let queries = try options.openQueries()
        // CGM readings or a meter's finger-stick checks: both are drawn on the day views (a meter user's days too).
        let withGlucose = try Set(queries.subjects() + queries.subjects(metric: "blood_glucose"))
        if options.subject.map({ !withGlucose.contains($0) }) ?? withGlucose.isEmpty {
            return try writeWithoutGlucose(settings, queries)
        }
        let (loader, lastDay) = try options.openLoader(settings, queries: queries)
        let p = try ChartOptions.period(from: from, to: to, date: nil, length: 14, lastDay: lastDay)
        guard p.last - p.first < 366 else { throw configFailure(ValidationError("a page covers at most 366 days (one day view each)")) }
        let days = try loader.dayViews(p.first...p.last)
        let agp = try loader.agp(firstDay: p.first, lastDay: p.last)
        let tableFirst = min(p.first, p.last - Int64(tableDays.int) + 1)
        let table = try loader.dayTable(firstDay: tableFirst, lastDay: p.last)
        let bands = try days.last?.bands ?? loader.bands(around: p.last)

        let history = try sqlite.map { try PageSections.history(path: $0, subject: options.subject ?? loader.subject, lastDay: p.last) } ?? []
        var page = HealthPage(subject: loader.subject, firstDay: p.first, lastDay: p.last, unit: settings.unit, showBasal: settings.showBasal,
                              days: days, agp: agp, table: table, bands: bands, history: history,
                              generator: "healthpipe " + (HealthPipeMain.configuration.version))
        page.reports = try sqlite.flatMap { try PageSections.reports(path: $0, subject: loader.subject, lastDay: p.last) }
        page.dailyMetrics = try PageSections.dailyMetrics(queries, subject: loader.subject, first: p.first, last: p.last)
        try writeOutput(page.html(), to: output)
        printError("wrote \(output): \(days.count) day views, AGP \(CivilDate.isoDate(fromDays: p.first)) – \(CivilDate.isoDate(fromDays: p.last)), \(table.rows.count) table days")
    }

    /// A person without glucose readings (a health log, a toothbrush): the page holds their health
    /// reports and toothbrushing, ending at the last day with either, and says why the glucose views
    /// are not there. The subject follows the subject rule over everything the database holds.
    func writeWithoutGlucose(_ settings: ViewSettings, _ queries: StoreReader) throws {
        let sqlite = try options.sqlitePath()
        let subject = try SubjectRule.resolve(options.subject, store: try options.openStore(), label: options.shownDB)
        var last: Int64?
        if let path = sqlite {
            last = try HealthLogQueries(path: path).reportSpan(subject: subject)?.last
            if let b = try BrushingHistory.latest(path: path, subject: subject) {
                last = max(last ?? .min, LocalDays.day(b.start, b.utcOffset))
            }
        }
        if let d = try queries.lastOtherSummaryDay(subject: subject).flatMap(CivilDate.days(fromISO:)) { last = max(last ?? .min, d) }
        guard let lastDay = last else {
            printError("\(options.shownDB): nothing to show for '\(subject)': no glucose readings, daily metrics, health reports or toothbrushing sessions")
            throw ExitCode(1)
        }
        let p = try ChartOptions.period(from: from, to: to, date: nil, length: 14, lastDay: lastDay)
        let history = try sqlite.map { try PageSections.history(path: $0, subject: subject, lastDay: p.last) } ?? []
        let agp = AGPBuilder.build(subject: subject, firstDay: p.first, lastDay: p.last, readings: [], unit: settings.unit)
        var page = HealthPage(subject: subject, firstDay: p.first, lastDay: p.last, unit: settings.unit, showBasal: settings.showBasal,
                              days: [], agp: agp, table: DayTable(subject: subject, firstDay: p.first, lastDay: p.last, unit: settings.unit, rows: []),
                              bands: ChartBands(scheme: settings.scheme ?? .seeds), history: history,
                              generator: "healthpipe " + (HealthPipeMain.configuration.version))
        page.hasGlucose = false
        page.reports = try sqlite.flatMap { try PageSections.reports(path: $0, subject: subject, lastDay: p.last) }
        page.dailyMetrics = try PageSections.dailyMetrics(queries, subject: subject, first: p.first, last: p.last)
        try writeOutput(page.html(), to: output)
        printError("wrote \(output): no glucose readings for '\(subject)'; " + (page.dailyMetrics == nil ? "no" : "the") + " daily metrics, "
                   + (page.reports == nil ? "no" : "the") + " health reports, "
                   + (history.isEmpty ? "no" : "the") + " toothbrushing history, " + CivilDate.isoDate(fromDays: p.first) + " – "
                   + CivilDate.isoDate(fromDays: p.last))
    }
}
