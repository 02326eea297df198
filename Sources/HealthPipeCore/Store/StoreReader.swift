/// What the views read from a HealthPipe store, whatever it is: the SQLite file (`ChartQueries`) and
/// PostgreSQL (`PGChartQueries`) answer every question alike, so `chart` and `page` run on either.
/// Every read is a range of one subject's keys, never a scan of the whole history.
public protocol StoreReader: AnyObject {
    /// Subjects that have readings of `metric`, sorted.
    func subjects(metric: String) throws -> [String]
    /// Readings (grid values excluded) of a subject's `metric` with `fromUTC <= start < toUTC`, all
    /// sources merged in time order (at one instant in source-name order).
    func readings(subject: String, metric: String, fromUTC: Int64, toUTC: Int64) throws -> [Measurement]
    /// The first and the last reading of a subject's `metric` within the plausible dates.
    func readingSpan(subject: String, metric: String) throws -> (first: Measurement, last: Measurement)?
    /// A subject's events with `fromUTC <= start < toUTC` in time order, plus episodes that began up to
    /// `episodeLookbackDays` earlier and still run at `fromUTC`.
    func events(subject: String, fromUTC: Int64, toUTC: Int64, episodeLookbackDays: Int64) throws -> [Event]
    /// The `day_log` rows of local days `fromDay...toDay` (YYYY-MM-DD), oldest first (a row whose day
    /// is not a date is left out).
    func dayLog(subject: String, fromDay: String, toDay: String) throws -> [DayLogRow]
    /// The daily glucose summaries (n > 0) of local days `fromDay...toDay` (YYYY-MM-DD), oldest first.
    func glucoseSummaries(subject: String, fromDay: String, toDay: String) throws -> [DailySummaryRow]
    /// Daily summaries other than glucose with values, of local days `fromDay...toDay`, by day and metric.
    func otherDailySummaries(subject: String, fromDay: String, toDay: String) throws -> [DailySummaryRow]
    /// The last local day (YYYY-MM-DD) with a daily summary other than glucose; nil without one.
    func lastOtherSummaryDay(subject: String) throws -> String?
}

extension StoreReader {
    /// From the day log (a store without a query of its own).
    public func glucoseSummaries(subject: String, fromDay: String, toDay: String) throws -> [DailySummaryRow] {
        try dayLog(subject: subject, fromDay: fromDay, toDay: toDay).filter { $0.readings > 0 }.map {
            DailySummaryRow(day: CivilDate.isoDate(fromDays: $0.day), metric: "glucose", unit: "mg/dL", n: $0.readings, mean: $0.avg, min: $0.low, max: $0.high)
        }
    }

    public func subjects() throws -> [String] { try subjects(metric: "glucose") }
    public func readings(subject: String, fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        try readings(subject: subject, metric: "glucose", fromUTC: fromUTC, toUTC: toUTC)
    }
    public func readingSpan(subject: String) throws -> (first: Measurement, last: Measurement)? {
        try readingSpan(subject: subject, metric: "glucose")
    }
    public func events(subject: String, fromUTC: Int64, toUTC: Int64) throws -> [Event] {
        try events(subject: subject, fromUTC: fromUTC, toUTC: toUTC, episodeLookbackDays: 31)
    }
}

/// One day of the seeds' health table, as the `day_log` view defines it (the views' day table row).
public struct DayLogRow: Sendable, Hashable {
    /// The local day number (days since 1970-01-01).
    public var day: Int64
    public var readings: Int
    /// Finger-stick checks (`blood_glucose`) of the day.
    public var checks: Int = 0
    /// Glucose min, mean, max in mg/dL — the CGM's, or on a day without CGM readings the checks'
    /// (a meter user's days); nil on a day with neither.
    public var low: Double?, avg: Double?, high: Double?
    /// True when `low`/`avg`/`high` are the checks' (no CGM readings that day).
    public var rangeFromChecks: Bool { readings == 0 && checks > 0 }
    public var hypo: Bool, hyper: Bool, exercise: Bool, stress: Bool, illness: Bool
    public var favourite: Bool
    public var note: String?

    public init(day: Int64, readings: Int = 0, low: Double? = nil, avg: Double? = nil, high: Double? = nil, hypo: Bool = false,
                hyper: Bool = false, exercise: Bool = false, stress: Bool = false, illness: Bool = false, favourite: Bool = false,
                note: String? = nil) {
        self.day = day
        self.readings = readings
        self.low = low
        self.avg = avg
        self.high = high
        self.hypo = hypo
        self.hyper = hyper
        self.exercise = exercise
        self.stress = stress
        self.illness = illness
        self.favourite = favourite
        self.note = note
    }

    /// Folds one `daily_summaries` row of this day in, as `day_log` does: the glucose row gives the
    /// readings and range, the checks' row the range of a day without CGM readings (in either
    /// order); any metric's row carries the day's exercise and episodes.
    public mutating func add(metric: String, n: Int, min: Double?, mean: Double?, max: Double?, hypo: Bool, hyper: Bool,
                             exerciseMinutes: Double, stress: Bool, illness: Bool) {
        if metric == Metrics.bloodGlucose.text, n > 0 {
            checks = n
            if readings == 0 { (low, avg, high) = (min, mean, max) }
        }
        if metric == Metrics.glucose.text, n > 0 {
            readings = n
            low = min
            avg = mean
            high = max
            self.hypo = hypo
            self.hyper = hyper
        }
        if exerciseMinutes > 0 { exercise = true }
        if stress { self.stress = true }
        if illness { self.illness = true }
    }
}

extension [DayLogRow] {
    /// Stars the rows of the favourite days (`favourites`' day YYYY-MM-DD and note), as `day_log` does:
    /// a favourite day without summaries adds no row.
    public mutating func markFavourites(_ favourites: [(day: String?, note: String?)]) {
        var notes: [Int64: String?] = [:]
        for f in favourites { if let day = f.day.flatMap(CivilDate.days(fromISO:)) { notes[day] = .some(f.note) } }
        for i in indices {
            if let note = notes[self[i].day] {
                self[i].favourite = true
                self[i].note = note
            }
        }
    }
}

/// A daily summary other than glucose (steps, heart rate, sleep …) of one local day.
public struct DailySummaryRow: Sendable, Hashable {
    public var day: String, metric: String, unit: String
    public var n: Int
    public var mean: Double?, min: Double?, max: Double?
    /// A metric that adds up: the day's total, each minute once across sources, and what each
    /// source counted (`daily_summaries.total_sources`, JSON); nil for a level or a day summarised
    /// before totals were kept.
    public var total: Double?
    public var totalSources: String?

    public init(day: String, metric: String, unit: String, n: Int, mean: Double?, min: Double?, max: Double?,
                total: Double? = nil, totalSources: String? = nil) {
        self.day = day
        self.metric = metric
        self.unit = unit
        self.n = n
        self.mean = mean
        self.min = min
        self.max = max
        self.total = total
        self.totalSources = totalSources
    }
}
