import Foundation

/// Per subject, metric and local day: the seeds' low/avg/high with hypo/hyper flags, plus the
/// spread, band shares and the day's event totals. Produced by the `daily` transform.
public struct DailySummary: Hashable, Sendable {
    public var subject: Symbol
    public var metric: Symbol
    /// Days since 1970-01-01 in local time.
    public var day: Int64
    public var unit: Symbol
    public var count: Int
    public var min: Double
    public var max: Double
    public var mean: Double
    /// Sample standard deviation (n − 1); nil for a single reading.
    public var sd: Double?
    /// Percentage of readings in each band (label → percent), in the classifier's band order.
    public var bandPercents: [BandShare]
    /// Any reading below / above the classifier's low / high edge.
    public var hypo: Bool
    public var hyper: Bool
    public var carbsGrams: Double
    public var insulinUnits: Double
    public var exerciseMinutes: Double
    public var illness: Bool
    public var stress: Bool
    /// For a metric that adds up (`MetricCatalogue`: steps, distance, energy, sleep minutes): the
    /// day's total with each minute counted once across sources (`SourcePriority`); nil otherwise.
    public var total: Double?
    /// What each source counted in `total` (the sources that lost a minute to a higher one count
    /// less than they recorded; mean × count is what all of them recorded).
    public var totalSources: [SourceShare]

    public init(subject: Symbol, metric: Symbol, day: Int64, unit: Symbol, count: Int, min: Double, max: Double,
                mean: Double, sd: Double?, bandPercents: [BandShare], hypo: Bool, hyper: Bool,
                carbsGrams: Double, insulinUnits: Double, exerciseMinutes: Double, illness: Bool, stress: Bool,
                total: Double? = nil, totalSources: [SourceShare] = []) {
        self.subject = subject
        self.metric = metric
        self.day = day
        self.unit = unit
        self.count = count
        self.min = min
        self.max = max
        self.mean = mean
        self.sd = sd
        self.bandPercents = bandPercents
        self.hypo = hypo
        self.hyper = hyper
        self.carbsGrams = carbsGrams
        self.insulinUnits = insulinUnits
        self.exerciseMinutes = exerciseMinutes
        self.illness = illness
        self.stress = stress
        self.total = total
        self.totalSources = totalSources
    }
}

public struct BandShare: Hashable, Sendable {
    public var band: Symbol
    public var percent: Double
    public init(band: Symbol, percent: Double) {
        self.band = band
        self.percent = percent
    }
}

/// What one source counted in a day's total.
public struct SourceShare: Hashable, Sendable {
    public var source: Symbol
    public var amount: Double
    public init(source: Symbol, amount: Double) {
        self.source = source
        self.amount = amount
    }

    /// The shares as the store keeps them (`daily_summaries.total_sources`): a JSON object of
    /// source name → amount, in name order; nil when there are none.
    public static func json(_ shares: [SourceShare]) -> String? {
        guard !shares.isEmpty else { return nil }
        var w = JSONWriter()
        w.beginObject()
        for s in shares { w.key(s.source.text); w.double(s.amount) }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The shares of a stored `total_sources` text, in name order; none when it is not such an object.
    public static func parse(json: String) -> [SourceShare] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return [] }
        return object.compactMap { key, value in (value as? NSNumber).map { SourceShare(source: Symbol(key), amount: $0.doubleValue) } }
            .sorted { $0.source.text < $1.source.text }
    }
}
