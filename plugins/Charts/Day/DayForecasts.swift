import HealthPipeAnalytics
import HealthPipeCore

/// The forecast a `predict` stage would have issued at given readings, without streaming the whole
/// history: a ridge model fits itself once on the subject's first week and never changes after, and
/// a forecast then depends only on the last half hour of readings (and five hours of treatments).
/// So the runner streams from the first reading until the personal fit (or the last wanted reading),
/// then jumps to each wanted reading's recent past.
struct DayForecasts {
    let model: ForecastModelKind
    let steps: Int

    /// Doses act for five hours (the model's window): this much before the first recent reading is fed.
    static let treatmentSeconds: Int64 = 6 * 3600
    static let chunkSeconds: Int64 = 8 * 86_400

    /// Forecasts issued at each time of `issueTimes` (UTC; readings that exist), keyed by that time.
    /// `recent` holds the readings around the wanted times, in time order.
    func run(source: ChartDataSource, first: Int64, issueTimes: [Int64], recent: [Measurement]) throws -> [Int64: DayView.Forecast] {
        guard let lastWanted = issueTimes.max() else { return [:] }
        let wanted = Set(issueTimes)
        let forecaster = SubjectForecaster(model: model, steps: steps)
        var out: [Int64: DayView.Forecast] = [:]
        var fedThrough = Int64.min
        // Treatments are added by time range; the model ignores a dose until its time comes.
        var treatmentsUntil = Int64.min
        func addTreatments(from: Int64, to: Int64) throws {
            guard model == .ridgeTreatments, to > max(from, treatmentsUntil) else { return }
            for e in try source.events(fromUTC: max(from, treatmentsUntil), toUTC: to) where e.kind == .meal || e.kind == .insulin {
                forecaster.addTreatment(time: e.start, carbs: e.carbs ?? 0, insulin: e.insulin ?? 0)
            }
            treatmentsUntil = to
        }
        func feed(_ readings: [Measurement]) {
            for r in readings where r.start > fedThrough && r.start <= lastWanted {
                let issued = forecaster.add(time: r.start, utcOffset: r.utcOffset, value: r.value)
                fedThrough = r.start
                guard wanted.contains(r.start), let f = issued else { continue }
                var points: [(utc: Int64, mgdl: Double)] = []
                for (h, v) in f.values.enumerated() { points.append((f.origin + Int64(300 * (h + 1)), v)) }
                out[r.start] = DayView.Forecast(model: model.rawValue, issuedAt: f.origin, offset: r.utcOffset, origin: r.value,
                                                points: points)
            }
        }

        // Until the personal fit, every reading counts: stream from the first one.
        if model != .ar2 {
            var cursor = first
            while forecaster.personal == nil && cursor <= lastWanted {
                let end = min(cursor + Self.chunkSeconds, lastWanted + 1)
                try addTreatments(from: cursor, to: end)
                feed(try source.glucose(fromUTC: cursor, toUTC: end))
                cursor = end
            }
        }
        // Then only each wanted reading's recent past matters.
        if let firstRecent = recent.first(where: { $0.start > fedThrough })?.start, fedThrough < lastWanted {
            try addTreatments(from: firstRecent - Self.treatmentSeconds, to: lastWanted + 1)
            feed(recent)
        }
        return out
    }
}
