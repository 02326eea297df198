import HealthPipeCore

/// Glucose alerts per subject: a predicted low (high) when the forecast issued at a reading falls
/// below `low` (rises above `high`) within the horizon while the reading itself is not yet there,
/// and sustained low (high) episodes of measured readings lasting at least `min_duration`.
/// Consecutive triggers with at most a 10-minute gap merge into one alert (start, end, duration).
public final class AlertsTransform: Transform {
    public struct Settings: Sendable {
        public var low = 70.0
        public var high = 250.0
        public var minDurationMinutes = 15
        public var horizonMinutes = 30
        public var model: ForecastModelKind = .ridge
        public var metric = Metrics.glucose
        public init() {}
    }

    final class SubjectState {
        let forecaster: SubjectForecaster
        var predictedLow, predictedHigh, low, high: EpisodeTracker
        init(_ s: Settings) {
            forecaster = SubjectForecaster(model: s.model, steps: s.horizonMinutes / 5)
            let gap: Int64 = 600, minimum = Int64(s.minDurationMinutes * 60)
            predictedLow = EpisodeTracker(kind: .predictedLow, threshold: s.low, maxGap: gap, minDuration: 0)
            predictedHigh = EpisodeTracker(kind: .predictedHigh, threshold: s.high, maxGap: gap, minDuration: 0)
            low = EpisodeTracker(kind: .low, threshold: s.low, maxGap: gap, minDuration: minimum)
            high = EpisodeTracker(kind: .high, threshold: s.high, maxGap: gap, minDuration: minimum)
        }
    }

    let settings: Settings
    private let modelSymbol: Symbol
    private var subjects: [Symbol: SubjectState] = [:]

    public init(settings: Settings, inputTimeOrdered: Bool = false) {
        self.settings = settings
        modelSymbol = settings.model.symbol
        feed = TimeOrderedFeed(inputTimeOrdered: inputTimeOrdered, purpose: "\(Self.self) readings")
    }

    /// Readings must come in time order: taken as they come from a time-ordered input, else replayed
    /// in order at the end (`TimeOrderedFeed`).
    private let feed: TimeOrderedFeed

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try feed.add(batch) { try step($0, emit: emit) }
    }

    private func step(_ batch: RecordBatch, emit: (RecordBatch) throws -> Void) throws {
        if settings.model.usesTreatments {
            for e in batch.events where e.kind == .meal || e.kind == .insulin {
                state(e.subject).forecaster.addTreatment(time: e.start, carbs: e.carbs ?? 0, insulin: e.insulin ?? 0)
            }
        }
        var out: [Alert] = []
        var subject = Symbol.empty
        var s: SubjectState?
        for m in batch.measurements where m.metric == settings.metric {
            if s == nil || m.subject != subject {
                subject = m.subject
                s = state(subject)
            }
            let st = s!
            let g = m.value
            let forecast = st.forecaster.add(time: m.start, utcOffset: m.utcOffset, value: g)
            let lowest = forecast?.values.min() ?? g, highest = forecast?.values.max() ?? g
            let offset = m.utcOffset, metric = m.metric, t = m.start
            if let a = st.predictedLow.step(subject: subject, metric: metric, model: modelSymbol, time: t, utcOffset: offset,
                                            triggered: g >= settings.low && lowest < settings.low, value: lowest) { out.append(a) }
            if let a = st.predictedHigh.step(subject: subject, metric: metric, model: modelSymbol, time: t, utcOffset: offset,
                                             triggered: g <= settings.high && highest > settings.high, value: highest) { out.append(a) }
            if let a = st.low.step(subject: subject, metric: metric, model: .empty, time: t, utcOffset: offset,
                                   triggered: g < settings.low, value: g) { out.append(a) }
            if let a = st.high.step(subject: subject, metric: metric, model: .empty, time: t, utcOffset: offset,
                                    triggered: g > settings.high, value: g) { out.append(a) }
        }
        if !out.isEmpty { try emit(RecordBatch(alerts: out)) }
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try feed.finish { try step($0, emit: emit) }
        var out: [Alert] = []
        for key in subjects.keys.sorted(by: { $0.text < $1.text }) {
            let st = subjects[key]!
            for a in [st.predictedLow.flush(), st.predictedHigh.flush(), st.low.flush(), st.high.flush()] {
                if let a { out.append(a) }
            }
        }
        subjects.removeAll()
        if !out.isEmpty { try emit(RecordBatch(alerts: out)) }
    }

    private func state(_ subject: Symbol) -> SubjectState {
        if let s = subjects[subject] { return s }
        let s = SubjectState(settings)
        subjects[subject] = s
        return s
    }
}

public let alertsComponent = ComponentDescriptor(
    name: "alerts", role: .transform, family: "HealthPipeAnalytics",
    summary: """
        Glucose alerts per subject: predicted_low / predicted_high when the forecast (model, horizon) crosses a \
        threshold before the readings do, and low / high episodes of readings beyond a threshold for at least \
        min_duration. Triggers at most 10 minutes apart merge into one alert with start, end and the extreme value.
        """,
    options: [
        OptionDoc("low", "number", default: "70 mg/dL", "below this is low"),
        OptionDoc("high", "number", default: "250 mg/dL", "above this is high"),
        OptionDoc("unit", "mg/dL | mmol/L", default: "mg/dL", "unit of low and high"),
        OptionDoc("min_duration", "duration", default: "15m", "shortest measured low/high episode reported"),
        OptionDoc("horizon", "duration (5m … 60m)", default: "30m", "how far ahead predicted alerts look"),
        OptionDoc("model", "ar2 | ridge | ridge-treatments", default: "ridge", "the forecasting model"),
        OptionDoc("metric", "metric name", default: "glucose", "the measurements to watch"),
    ],
    accepts: [.measurements, .events], produces: [.alerts],
    build: { b in
        var s = AlertsTransform.Settings()
        let unit = try b.value("unit", as: GlucoseUnit.self) ?? .mgdl
        if let low = try b.value("low", as: Double.self) { s.low = unit.toMgdl(low) }
        if let high = try b.value("high", as: Double.self) { s.high = unit.toMgdl(high) }
        guard s.low < s.high else { throw b.error("low must be below high", option: "low") }
        if let d = try b.value("min_duration", as: String.self) {
            guard let m = DurationText.minutes(d), m >= 0 else { throw b.error("min_duration must be a duration such as 15m", option: "min_duration") }
            s.minDurationMinutes = m
        }
        s.horizonMinutes = try PredictHorizon.minutes(b)
        s.model = try b.value("model") ?? .ridge
        s.metric = Symbol(try b.value("metric") ?? "glucose")
        return AlertsTransform(settings: s, inputTimeOrdered: b.inputTimeOrdered)
    })
