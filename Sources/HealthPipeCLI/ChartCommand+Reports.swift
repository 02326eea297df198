import ArgumentParser
import Charts
import Foundation
import HealthPipeCore
import SQLiteStore

/// The seed-004 graphs: they need health reports, not glucose.
struct ReportValuesChart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report-values",
        abstract: "One health value of the reports over the week ending at --date (default: the last day with a report).")

    @OptionGroup var output: ChartOutputOptions
    @Option(help: "The week's last day, YYYY-MM-DD.") var date: String?
    @Option(help: "The health value, e.g. body_temperature (default: the value reported most that week).") var metric: String?

    func run() throws {
        let data = try ReportChartData.open(output)
        let name = try metric.map { m -> String in
            guard let n = HealthValues.metricName(m) else { throw configFailure(ValidationError("--metric \(m): not a health value name")) }
            return n
        }
        guard let v = try data.values(metric: name, lastDay: try date.map { try ChartOptions.day($0, option: "--date") }) else {
            throw ReportChartData.noReports(output.options)
        }
        try output.write(svg: ReportValuesSVG(view: v).document(), json: v.json())
    }
}

struct ReportDaysChart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report-days",
        abstract: "Health reports per day (default: the 30 days ending at the last day with a report).")

    @OptionGroup var output: ChartOutputOptions
    @Option(help: "First day, YYYY-MM-DD.") var from: String?
    @Option(help: "Last day, YYYY-MM-DD.") var to: String?
    @Option(help: "The last day when --to is not given, YYYY-MM-DD.") var date: String?

    func run() throws {
        let data = try ReportChartData.open(output)
        let first = try from.map { try ChartOptions.day($0, option: "--from") }
        let last = try (to ?? date).map { try ChartOptions.day($0, option: to != nil ? "--to" : "--date") }
        guard let v = try data.days(first: first, last: last) else { throw ReportChartData.noReports(output.options) }
        if v.firstDay > v.lastDay { throw configFailure(ValidationError("--from is after --to")) }
        try output.write(svg: ReportDaysSVG(view: v).document(), json: v.json())
    }
}

extension ReportChartData {
    /// The report graphs' data of the store and subject of a chart command (after the SVG check).
    static func open(_ output: ChartOutputOptions) throws -> ReportChartData {
        try output.refuseClash()
        let options = output.options
        let path = try options.databasePath()
        let queries: HealthLogQueries
        do { queries = try HealthLogQueries(path: path) } catch {
            printError("\(options.db): \(error)")
            throw ExitCode(1)
        }
        return ReportChartData(queries: queries, path: path, subject: try SubjectRule.resolve(options.subject, database: path, label: options.db))
    }

    /// Exit 1: the store holds no reports (of the subject).
    static func noReports(_ options: ChartOptions) -> ExitCode {
        printError("\(options.db): no health reports" + (options.subject.map { " for subject \($0)" } ?? ""))
        return ExitCode(1)
    }
}
