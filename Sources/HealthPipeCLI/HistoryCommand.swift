import ArgumentParser
import Charts
import Foundation
import HealthPipeCore

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Chart data of stored toothbrushing sessions for a week, month or year (the seed's history view).",
        discussion: """
        --offset -1 is the previous period, 1 the next. Includes Apple Health toothbrushing records
        (measurements.metric or events.subtype 'toothbrushing'). A period without sessions prints an empty chart
        (with --json: every bucket with 0 sessions and "empty": true); it is not an error.
        """)

    @OptionGroup var store: StoreOptions
    @Option(help: "The period's length (a week is Mon–Sun).") var period: HistoryChart.Period = .week
    @Option(parsing: .unconditional, help: "Periods before (negative, e.g. --offset -1) or after the current one.", transform: NumberRule.periodOffset.flag) var offset: NumberFlag = NumberFlag(0, .periodOffset)
    @OptionGroup var today: TodayOption
    @Flag(help: "Print the chart data as JSON.") var json = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        var zone: TimeZone?
        if let name = shared.timezone {
            guard let tz = ZoneResolver.timeZone(named: name) else { throw configFailure(ValidationError("unknown time zone '\(name)'")) }
            zone = tz
        }
        let day = try today.day() ?? HistoryChartSink.today(in: zone)
        let path = try store.location.existingPath(hint: "store sessions with `healthpipe stream --db \(store.db)` first")
        let subject = try SubjectRule.resolve(shared.subject, database: path, label: store.db)
        let chart = try HistoryData.chart(path: path, subject: subject, period: period, offset: offset.int, anchor: day)
        if json { try emit(chart.json()) } else { print(chart.text()) }
    }
}
