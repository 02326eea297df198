import Charts
import HealthPipeAnalytics
import HealthPipeCore
import SQLiteStore

/// The chart views' data source over a SQLite store: the CLI composes the store's queries
/// (plugins/SQLiteStore/Query/ChartQueries.swift) with the views (plugins/Charts).
struct StoreChartSource: ChartDataSource {
    let queries: ChartQueries
    let subject: String

    func glucose(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        try queries.readings(subject: subject, fromUTC: fromUTC, toUTC: toUTC)
    }

    func events(fromUTC: Int64, toUTC: Int64) throws -> [Event] {
        try queries.events(subject: subject, fromUTC: fromUTC, toUTC: toUTC)
    }

    func basalRates(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        try queries.readings(subject: subject, metric: BasalRates.metric.text, fromUTC: fromUTC, toUTC: toUTC)
    }

    func glucoseSpan() throws -> (first: Measurement, last: Measurement)? {
        try queries.readingSpan(subject: subject)
    }

    func dayRows(fromDay: Int64, toDay: Int64) throws -> [DayTable.Row] {
        try queries.dayLog(subject: subject, fromDay: CivilDate.isoDate(fromDays: fromDay), toDay: CivilDate.isoDate(fromDays: toDay))
            .compactMap { r in
                guard let day = CivilDate.days(fromISO: r.day) else { return nil }
                return DayTable.Row(day: day, readings: r.readings, low: r.low, avg: r.avg, high: r.high, hypo: r.hypo,
                                    hyper: r.hyper, exercise: r.exercise, stress: r.stress, illness: r.illness,
                                    favourite: r.favourite, note: r.note)
            }
    }
}
