/// The seed-004 daily summary report: per subject, local day and health value, the average of
/// that day's reports with how many there were, the lowest and highest value and the highest
/// importance seen. Produced by the `reports` transform from the stored reports.
public struct ReportDay: Hashable, Sendable {
    public var subject: Symbol
    /// Days since 1970-01-01 in local time.
    public var day: Int64
    public var metric: Symbol
    public var unit: Symbol
    /// Reports made that day (any value).
    public var reports: Int
    /// Reports that day holding this value.
    public var count: Int
    public var mean: Double
    public var min: Double
    public var max: Double
    public var maxImportance: Int

    public init(subject: Symbol, day: Int64, metric: Symbol, unit: Symbol, reports: Int, count: Int, mean: Double,
                min: Double, max: Double, maxImportance: Int) {
        self.subject = subject
        self.day = day
        self.metric = metric
        self.unit = unit
        self.reports = reports
        self.count = count
        self.mean = mean
        self.min = min
        self.max = max
        self.maxImportance = maxImportance
    }
}
