import Charts
import Foundation
import HealthPipeCore
import SQLiteStore

/// The page's sections besides the glucose views, read from a store: `page` writes them into its
/// file and `serve` into the app's screens (one home for both).
package enum PageSections {
    /// The daily summaries other than glucose of `first...last`; nil when there are none.
    package static func dailyMetrics(_ q: StoreReader, subject: String, first: Int64, last: Int64) throws -> DailyMetricsTable? {
        let rows = try q.otherDailySummaries(subject: subject, fromDay: CivilDate.isoDate(fromDays: first), toDay: CivilDate.isoDate(fromDays: last))
        let cells = rows.compactMap { r in
            CivilDate.days(fromISO: r.day).map { DailyMetricsTable.Cell(day: $0, metric: r.metric, unit: r.unit, n: r.n, mean: r.mean, min: r.min, max: r.max,
                                                                       total: r.total, totalSources: r.totalSources) }
        }
        return cells.isEmpty ? nil : DailyMetricsTable(cells: cells)
    }

    /// The toothbrushing history (week, month, year) around `lastDay`; empty without sessions.
    package static func history(path: String, subject: String, lastDay: Int64) throws -> [HistoryChart] {
        let year = try HistoryData.chart(path: path, subject: subject, period: .year, offset: 0, anchor: lastDay)
        guard !year.isEmpty else { return [] }
        return [try HistoryData.chart(path: path, subject: subject, period: .week, offset: 0, anchor: lastDay),
                try HistoryData.chart(path: path, subject: subject, period: .month, offset: 0, anchor: lastDay), year]
    }

    /// The health log on the page: the month calendar, the week's most reported values (up to four)
    /// and the reports per day of the 30 days ending at the page's last day; nil without reports.
    package static func reports(path: String, subject: String, lastDay: Int64) throws -> HealthPage.Reports? {
        let queries = try HealthLogQueries(path: path)
        let data = ReportChartData(queries: queries, path: path, subject: subject)
        let week = try queries.reports(subject: subject, fromDay: lastDay - 6, toDay: lastDay)
        guard let days = try data.days(first: lastDay - 29, last: lastDay), days.total > 0 else { return nil }
        let values = try ReportChartData.metricsByUse(week).prefix(4).compactMap { try data.values(metric: $0, lastDay: lastDay) }
        // Whole months, from the month of the first report of the 30 days to the page's last day's.
        let firstReport = try queries.reports(subject: subject, fromDay: lastDay - 29, toDay: lastDay).first?.localDay ?? lastDay
        let (y, m, _) = CivilDate.date(fromDays: firstReport)
        let calendar = try data.calendar(first: CivilDate.days(year: y, month: m, day: 1), last: lastDay)
        return HealthPage.Reports(values: values, days: days, calendar: calendar)
    }
}
