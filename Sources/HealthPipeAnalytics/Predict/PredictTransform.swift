import HealthPipeCore

/// Forecasts glucose 5 … `horizon` minutes ahead at every reading, per subject, with Nightscout
/// AR2 or the ridge models. Emits `ForecastPoint`s: all of them (`issue: every`) or only the
/// forecast issued at each subject's newest reading (`issue: latest`, the current prediction).
public final class PredictTransform: Transform {
    public enum Issue: String, Decodable, Sendable { case every, latest }
    struct Key: Hashable { var subject: Symbol, metric: Symbol }

    let model: ForecastModelKind
    let steps: Int
    let issue: Issue
    let metric: Symbol
    private let modelSymbol: Symbol
    private var forecasters: [Key: SubjectForecaster] = [:]
    private var latest: [Key: [ForecastPoint]] = [:]

    public init(model: ForecastModelKind, horizonMinutes: Int = 30, issue: Issue = .latest, metric: Symbol = Metrics.glucose,
                inputTimeOrdered: Bool = false) {
        self.model = model
        self.steps = max(1, horizonMinutes / 5)
        self.issue = issue
        self.metric = metric
        self.modelSymbol = model.symbol
        feed = TimeOrderedFeed(inputTimeOrdered: inputTimeOrdered, purpose: "\(Self.self) readings")
    }

    /// Readings must come in time order: taken as they come from a time-ordered input, else replayed
    /// in order at the end (`TimeOrderedFeed`).
    private let feed: TimeOrderedFeed

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try feed.add(batch) { try step($0, emit: emit) }
    }

    private func step(_ batch: RecordBatch, emit: (RecordBatch) throws -> Void) throws {
        if model.usesTreatments {
            for e in batch.events where e.kind == .meal || e.kind == .insulin {
                forecaster(Key(subject: e.subject, metric: metric)).addTreatment(time: e.start, carbs: e.carbs ?? 0, insulin: e.insulin ?? 0)
            }
        }
        var out: [ForecastPoint] = []
        var key = Key(subject: .empty, metric: .empty)
        var current: SubjectForecaster?
        for m in batch.measurements where m.metric == metric {
            if current == nil || m.subject != key.subject {
                key = Key(subject: m.subject, metric: m.metric)
                current = forecaster(key)
            }
            guard let f = current!.add(time: m.start, utcOffset: m.utcOffset, value: m.value) else { continue }
            var points: [ForecastPoint] = []
            points.reserveCapacity(steps)
            for (h, v) in f.values.enumerated() {
                points.append(ForecastPoint(subject: m.subject, metric: m.metric, model: modelSymbol, issuedAt: f.origin,
                                            at: f.origin + Int64(300 * (h + 1)), utcOffset: m.utcOffset, value: v))
            }
            if issue == .every { out.append(contentsOf: points) } else { latest[key] = points }
        }
        if !out.isEmpty { try emit(RecordBatch(forecasts: out)) }
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try feed.finish { try step($0, emit: emit) }
        let points = latest.keys.sorted { ($0.subject.text, $0.metric.text) < ($1.subject.text, $1.metric.text) }
            .flatMap { latest[$0]! }
        if !points.isEmpty { try emit(RecordBatch(forecasts: points)) }
        latest.removeAll()
        forecasters.removeAll()
    }

    private func forecaster(_ key: Key) -> SubjectForecaster {
        if let f = forecasters[key] { return f }
        let f = SubjectForecaster(model: model, steps: steps)
        forecasters[key] = f
        return f
    }
}

/// The `horizon` option of predict and alerts: 5m … 60m in 5-minute steps (default 30m).
enum PredictHorizon {
    static func minutes(_ b: ComponentBuilder) throws -> Int {
        guard let text = try b.value("horizon", as: String.self) else { return 30 }
        guard let m = DurationText.minutes(text), m >= 5, m <= 60, m % 5 == 0 else {
            throw b.error("horizon must be 5m … 60m in 5-minute steps (got '\(text)')", option: "horizon")
        }
        return m
    }
}

public let predictComponent = ComponentDescriptor(
    name: "predict", role: .transform, family: "HealthPipeAnalytics",
    summary: """
        Forecasts glucose at 5-minute steps up to the horizon, at every reading, per subject. Models: ar2 \
        (Nightscout AR2, exact), ridge (direct ridge on the last 6 readings and time of day; shipped population \
        coefficients until a subject has 7 days of data, then fitted on that week), ridge-treatments (ridge plus \
        insulin/carbs-on-board features from insulin and meal events). Readings may come in any order: unless the \
        input is time-ordered (re-aggregation), they are replayed in time order at the end, each reading once. \
        See docs/prediction.md.
        """,
    options: [
        OptionDoc("model", "ar2 | ridge | ridge-treatments", default: "ridge", "the forecasting model"),
        OptionDoc("horizon", "duration (5m … 60m)", default: "30m", "forecast points every 5 minutes up to this"),
        OptionDoc("issue", "latest | every", default: "latest",
                  "latest: keep only the forecast issued at each subject's newest reading; every: one forecast per reading"),
        OptionDoc("metric", "metric name", default: "glucose", "the measurements to forecast (mg/dL)"),
    ],
    accepts: [.measurements, .events], produces: [.forecasts],
    build: { b in
        PredictTransform(model: try b.value("model") ?? .ridge, horizonMinutes: try PredictHorizon.minutes(b),
                         issue: try b.value("issue") ?? .latest, metric: Symbol(try b.value("metric") ?? "glucose"),
                         inputTimeOrdered: b.inputTimeOrdered)
    })
