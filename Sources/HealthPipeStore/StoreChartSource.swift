import Charts
import HealthPipeAnalytics
import HealthPipeCore

/// The chart views' data source over any store: its reader (SQLite's or PostgreSQL's) composed with
/// the views (plugins/Charts).
public struct StoreChartSource: ChartDataSource {
    public let reader: StoreReader
    public let subject: String

    public init(reader: StoreReader, subject: String) {
        self.reader = reader
        self.subject = subject
    }

    public func glucose(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        try reader.readings(subject: subject, fromUTC: fromUTC, toUTC: toUTC)
    }

    public func events(fromUTC: Int64, toUTC: Int64) throws -> [Event] {
        try reader.events(subject: subject, fromUTC: fromUTC, toUTC: toUTC)
    }

    public func basalRates(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        try reader.readings(subject: subject, metric: BasalRates.metric.text, fromUTC: fromUTC, toUTC: toUTC)
    }

    public func glucoseDays(fromDay: Int64, toDay: Int64) throws -> [DayView.SideDay] {
        try reader.glucoseSummaries(subject: subject, fromDay: CivilDate.isoDate(fromDays: fromDay), toDay: CivilDate.isoDate(fromDays: toDay))
            .compactMap { row in
                guard let day = CivilDate.days(fromISO: row.day), let low = row.min, let avg = row.mean, let high = row.max else { return nil }
                return DayView.SideDay(day: day, count: row.n, min: low, mean: avg, max: high)
            }
    }

    public func glucoseSpan() throws -> (first: Measurement, last: Measurement)? {
        try reader.readingSpan(subject: subject)
    }

    public func checks(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        try reader.readings(subject: subject, metric: Metrics.bloodGlucose.text, fromUTC: fromUTC, toUTC: toUTC)
    }

    public func checkSpan() throws -> (first: Measurement, last: Measurement)? {
        try reader.readingSpan(subject: subject, metric: Metrics.bloodGlucose.text)
    }

    public func dayRows(fromDay: Int64, toDay: Int64) throws -> [DayTable.Row] {
        try reader.dayLog(subject: subject, fromDay: CivilDate.isoDate(fromDays: fromDay), toDay: CivilDate.isoDate(fromDays: toDay))
    }
}
