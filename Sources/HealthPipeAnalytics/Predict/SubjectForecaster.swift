import HealthPipeCore

/// Streams one subject's readings (and treatments) through a forecasting model and returns the
/// forecast issued at each reading. Ridge models start on the shipped population coefficients and
/// switch, once, to coefficients fitted on the subject's own first week: rows are collected until
/// the stream reaches `fitAfter` (7 days) past the subject's first reading, then every horizon step
/// is fitted in closed form and the rows are freed.
public final class SubjectForecaster {
    public let model: ForecastModelKind
    /// Forecast points per origin (5-minute steps).
    public let steps: Int
    public let fitAfter: Int64
    /// Fewest training rows (at the last step) before a personal fit replaces the population one.
    public let minimumTrainingRows: Int
    /// Whether forecasts pass `ForecastEnvelope` (always, but for scoring a model as published).
    public let withinEnvelope: Bool

    private var history: ReadingHistory
    private var treatments = TreatmentHistory()
    private var firstTime: Int64?
    public private(set) var personal: [RidgeModel]?
    private var rows: [[Double]]
    private var targets: [[Double]]
    /// Recent origins still waiting for their targets: (time, value, features).
    private var pending: [(time: Int64, value: Double, features: [Double])] = []
    private var features: [Double]

    public init(model: ForecastModelKind, steps: Int = 6, fitAfterDays: Int = 7, minimumTrainingRows: Int = 1008,
                withinEnvelope: Bool = true) {
        self.model = model
        self.withinEnvelope = withinEnvelope
        self.steps = steps
        self.fitAfter = Int64(fitAfterDays) * 86_400
        self.minimumTrainingRows = minimumTrainingRows
        history = ReadingHistory(keepSeconds: Self.readingMemorySeconds(steps: steps))
        rows = Array(repeating: [], count: steps)
        targets = Array(repeating: [], count: steps)
        features = [Double](repeating: 0, count: model.featureWidth)
    }

    /// How far back a forecast looks: readings this much older than its origin are no longer held,
    /// and doses older than `treatmentMemorySeconds` count for nothing — so feeding only the
    /// readings and doses within these spans before an origin issues the same forecast.
    public var readingMemorySeconds: Int64 { history.keepSeconds }
    public static func readingMemorySeconds(steps: Int) -> Int64 { Int64(max(steps, 6) * 300 + 3600) }
    public static var treatmentMemorySeconds: Int64 { TreatmentHistory.windowSeconds }

    /// An independent forecaster in this one's state (a long-running process keeps one fitted and
    /// starts each view from a copy).
    public func copy() -> SubjectForecaster {
        let c = SubjectForecaster(model: model, steps: steps, fitAfterDays: Int(fitAfter / 86_400), minimumTrainingRows: minimumTrainingRows,
                                  withinEnvelope: withinEnvelope)
        c.history = history
        c.treatments = treatments
        c.firstTime = firstTime
        c.personal = personal
        c.rows = rows
        c.targets = targets
        c.pending = pending
        c.features = features
        return c
    }

    /// A meal or insulin event: carbs in g, insulin in U.
    public func addTreatment(time: Int64, carbs: Double, insulin: Double) {
        guard model.usesTreatments, carbs > 0 || insulin > 0 else { return }
        treatments.add(time: time, carbs: carbs, insulin: insulin)
    }

    /// Adds a reading (mg/dL) and returns the forecast issued at it: the origin time and one value
    /// per 5-minute step, as far as `ForecastEnvelope` allows from this reading (fewer than `steps`
    /// when the model's line leaves it), or nil when there is none (a gap in the lags, an AR2 error
    /// reading, a first point beyond the envelope).
    /// Readings must arrive in time order; an older or duplicate reading is ignored.
    public func add(time: Int64, utcOffset: Int32, value: Double) -> (origin: Int64, values: [Double])? {
        if let last = history.newestTime, time <= last { return nil }
        if firstTime == nil { firstTime = time }
        history.append(time: time, value: value)
        var made: (origin: Int64, values: [Double])?
        switch model {
        case .ar2:
            made = NightscoutAR2.forecast(history.ar2Readings(since: time - 1200), steps: steps).map { ($0.origin, $0.points) }
        case .ridge, .ridgeTreatments:
            made = ridgeStep(time: time, utcOffset: utcOffset, value: value)
        }
        guard made != nil else { return nil }
        if withinEnvelope { ForecastEnvelope.limit(&made!.values, from: value) }  // in place: the array is not copied
        guard let f = made, !f.values.isEmpty else { return nil }
        return f
    }

    private func ridgeStep(time: Int64, utcOffset: Int32, value: Double) -> (origin: Int64, values: [Double])? {
        if personal == nil, time - firstTime! >= fitAfter, rows[steps - 1].count >= minimumTrainingRows { fitPersonal() }
        if personal == nil { collectTargets(time: time, value: value) }

        guard ForecastFeatures.fillCGM(&features, history: history, time: time, utcOffset: utcOffset) else { return nil }
        if model.usesTreatments {
            treatments.trim(before: time)
            ForecastFeatures.fillTreatments(&features, treatments: treatments, time: time)
        }
        if personal == nil { pending.append((time, value, features)) }
        var out = [Double](repeating: 0, count: steps)
        features.withUnsafeBufferPointer { x in
            for h in 0..<steps {
                let delta = personal?[h].predict(x) ?? PopulationRidge.predict(step: h + 1, x)
                out[h] = value + delta
            }
        }
        return (time, out)
    }

    /// Pairs origins 5…5·steps minutes back with this reading as their target.
    private func collectTargets(time: Int64, value: Double) {
        var keepFrom = 0
        for (i, o) in pending.enumerated() {
            let ahead = time - o.time
            if ahead > Int64(steps * 300 + 150) { keepFrom = i + 1; continue }
            let step = Int((Double(ahead) / 300).rounded())
            guard step >= 1, step <= steps, abs(ahead - Int64(step * 300)) <= 150 else { continue }
            rows[step - 1].append(contentsOf: o.features)
            targets[step - 1].append(value - o.value)
        }
        if keepFrom > 0 { pending.removeFirst(keepFrom) }
    }

    private func fitPersonal() {
        let width = model.featureWidth
        var fitted: [RidgeModel] = []
        for h in 0..<steps {
            guard let m = RidgeRegression.fit(features: rows[h], width: width, targets: targets[h]) else { return }
            fitted.append(m)
        }
        personal = fitted
        rows = Array(repeating: [], count: steps)
        targets = Array(repeating: [], count: steps)
        pending = []
    }
}
