import HealthPipeCore

/// What the views read, for one subject. The CLI implements it over the SQLite store (queries in
/// plugins/SQLiteStore); the `chart` sink and the tests implement it over records in memory.
public protocol ChartDataSource {
    /// Glucose readings (resampled grid values excluded) with `fromUTC <= start < toUTC`, in time order.
    func glucose(fromUTC: Int64, toUTC: Int64) throws -> [Measurement]
    /// Events with `fromUTC <= start < toUTC`, in time order.
    func events(fromUTC: Int64, toUTC: Int64) throws -> [Event]
    /// Delivered basal rates (`basal_rate` readings, U/h) with `fromUTC <= start < toUTC`, in time order.
    func basalRates(fromUTC: Int64, toUTC: Int64) throws -> [Measurement]
    /// The store's glucose summary of each local day `fromDay...toDay` that has one (the day table's numbers).
    func glucoseDays(fromDay: Int64, toDay: Int64) throws -> [DayView.SideDay]
    /// The subject's first and last glucose reading; nil when there is none.
    func glucoseSpan() throws -> (first: Measurement, last: Measurement)?
    /// Finger-stick checks (`blood_glucose`: a meter's readings, the BGs a pump was given) with
    /// `fromUTC <= start < toUTC`, in time order.
    func checks(fromUTC: Int64, toUTC: Int64) throws -> [Measurement]
    /// The subject's first and last check; nil when there is none.
    func checkSpan() throws -> (first: Measurement, last: Measurement)?
    /// The day table's rows for local days `fromDay...toDay` that have any summary, oldest first.
    func dayRows(fromDay: Int64, toDay: Int64) throws -> [DayTable.Row]
}

extension ChartDataSource {
    public func glucoseDays(fromDay: Int64, toDay: Int64) throws -> [DayView.SideDay] {
        try dayRows(fromDay: fromDay, toDay: toDay).compactMap { row in
            guard row.readings > 0, let low = row.low, let avg = row.avg, let high = row.high else { return nil }
            return DayView.SideDay(day: row.day, count: row.readings, min: low, mean: avg, max: high)
        }
    }
}
