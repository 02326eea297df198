import Charts
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import SQLiteStore

/// The seed-004 graphs from the store: a value over a week (the reports' readings, their daily
/// averages and the thresholds the database watches) and reports per day.
package struct ReportChartData {
    let queries: HealthLogQueries
    let path: String
    let subject: String

    package init(queries: HealthLogQueries, path: String, subject: String) {
        self.queries = queries
        self.path = path
        self.subject = subject
    }

    /// The week ending at `lastDay` (default: the last day with a report) of `metric` (default:
    /// the value reported most often that week).
    package func values(metric: String?, lastDay: Int64?) throws -> ReportValuesView? {
        guard let last = try lastDay ?? queries.reportSpan(subject: subject)?.last else { return nil }
        let first = last - 6
        let reports = try queries.reports(subject: subject, fromDay: first, toDay: last)
        guard let name = metric ?? Self.mostReported(reports) else { return nil }
        var points: [ReportValuesView.Point] = []
        var unit = HealthValues.kind(named: name)?.unit ?? ""
        for r in reports {
            for v in r.values where v.metric.text == name {
                points.append(.init(utc: r.start, offset: r.utcOffset, value: v.value, importance: v.importance, reportID: r.id))
                unit = v.unit.text
            }
        }
        let days = try queries.reportDays(subject: subject, fromDay: first, toDay: last).filter { $0.metric.text == name }.map { d in
            ReportValuesView.Day(day: d.day, n: d.count, mean: d.mean, min: d.min, max: d.max, maxImportance: d.maxImportance)
        }
        let thresholds = try ReportSettings.stored(path).thresholds.filter { $0.metric.text == name }.map {
            ReportValuesView.Threshold(above: $0.above, limit: $0.limit, days: $0.days, minImportance: $0.minImportance)
        }
        return ReportValuesView(subject: subject, metric: name, unit: unit, firstDay: first, lastDay: last, points: points, days: days,
                                thresholds: thresholds)
    }

    /// Reports per day of `first...last` (default: the 30 days ending at the last day with a report).
    package func days(first: Int64?, last: Int64?) throws -> ReportDaysView? {
        guard let end = try last ?? queries.reportSpan(subject: subject)?.last else { return nil }
        let start = first ?? end - 29
        var byDay: [Int64: ReportDaysView.Day] = [:]
        for d in try queries.reportDays(subject: subject, fromDay: start, toDay: end) {
            var row = byDay[d.day] ?? ReportDaysView.Day(day: d.day, reports: d.reports, maxImportance: 0)
            row.maxImportance = max(row.maxImportance, d.maxImportance)
            byDay[d.day] = row
        }
        return ReportDaysView(subject: subject, firstDay: start, lastDay: end, days: Array(byDay.values))
    }

    /// The values of a week, most reported first (ties by name).
    package static func metricsByUse(_ reports: [HealthLogQueries.StoredReport]) -> [String] {
        var counts: [String: Int] = [:]
        for r in reports { for v in r.values { counts[v.metric.text, default: 0] += 1 } }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
    }

    static func mostReported(_ reports: [HealthLogQueries.StoredReport]) -> String? { metricsByUse(reports).first }

    /// The month calendar of every month from `first`'s to `last`'s: each day's reports, its summary
    /// report (`report_days`) and the alerts on watched averages raised that day.
    package func calendar(first: Int64, last: Int64) throws -> ReportCalendar {
        var days: [Int64: ReportCalendar.Day] = [:]
        for r in try queries.reports(subject: subject, fromDay: first, toDay: last) {
            days[r.localDay, default: .init()].reports.append(.init(utc: r.start, offset: r.utcOffset, note: r.note, values: r.values.map {
                (metric: $0.metric.text, value: $0.value, unit: $0.unit.text, importance: $0.importance)
            }))
        }
        for d in try queries.reportDays(subject: subject, fromDay: first, toDay: last) {
            days[d.day, default: .init()].summary.append(d)
        }
        for a in try queries.alerts(subject: subject, kinds: [.averageAbove, .averageBelow]) {
            let day = LocalDays.day(a.end, a.utcOffset)
            guard day >= first, day <= last else { continue }
            days[day, default: .init()].alerts.append("Average of \(a.metric.text.replacingOccurrences(of: "_", with: " ")) "
                + "\(AlertsDue.number(a.value)), \(a.kind == .averageAbove ? "above" : "below") \(AlertsDue.number(a.threshold)) since "
                + LocalTimeText.wallClock(utc: a.start, offset: a.utcOffset))
        }
        return ReportCalendar(firstDay: first, lastDay: last, days: days)
    }
}
