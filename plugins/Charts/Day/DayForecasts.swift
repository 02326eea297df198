import HealthPipeAnalytics
import HealthPipeCore

/// The forecast a `predict` stage would have issued at given readings, without streaming the whole
/// history: a ridge model fits itself once on the subject's first week and never changes after, and
/// a forecast then depends only on the last readings (`readingMemorySeconds`) and five hours of
/// treatments. So the runner streams from the first reading until the personal fit (or the last
/// wanted reading), then feeds each wanted reading's recent past alone. A long-running process
/// keeps the state the fit ends in (`checkpoints`) and starts later views from it.
struct DayForecasts {
    let model: ForecastModelKind
    let steps: Int
    var subject = ""
    var checkpoints: ForecastCheckpoints?

    /// Doses act for five hours (the model's window): this much before the first recent reading is fed.
    static let treatmentSeconds: Int64 = 6 * 3600
    static let chunkSeconds: Int64 = 8 * 86_400
    /// Readings this long before a day are all a forecast at its first reading looks back to.
    static func recentSeconds(steps: Int) -> Int64 { SubjectForecaster.readingMemorySeconds(steps: steps) + 300 }

    /// What has been streamed through the forecaster so far.
    private struct Progress {
        let forecaster: SubjectForecaster
        var fedThrough = Int64.min
        /// Treatments are added by time range; the model ignores a dose until its time comes.
        var treatmentsUntil = Int64.min
    }

    /// Forecasts issued at each time of `issueTimes` (UTC; readings that exist), keyed by that time.
    /// `recent` holds the readings around the wanted times, in time order.
    func run(source: ChartDataSource, first: Int64, issueTimes: [Int64], recent: [Measurement]) throws -> [Int64: DayView.Forecast] {
        guard let lastWanted = issueTimes.max(), let firstWanted = issueTimes.min() else { return [:] }
        let wanted = Set(issueTimes)
        var out: [Int64: DayView.Forecast] = [:]
        var p = Progress(forecaster: SubjectForecaster(model: model, steps: steps))

        // Until the personal fit, every reading counts: stream from the first one (or continue
        // from the state a checkpoint kept).
        if model != .ar2 {
            let key = ForecastCheckpoints.Key(subject: subject, model: model, steps: steps, first: first)
            let version = checkpoints?.version ?? ""
            if let cp = try checkpoints?.usable(key, from: firstWanted, version: version, digest: { try digest(source, from: $0, to: $1) }) {
                p = Progress(forecaster: cp.forecaster.copy(), fedThrough: cp.fedThrough, treatmentsUntil: cp.treatmentsUntil)
            } else {
                var cursor = first
                var cutShort = false
                while p.forecaster.personal == nil && cursor <= lastWanted {
                    let end = min(cursor + Self.chunkSeconds, lastWanted + 1)
                    cutShort = end < cursor + Self.chunkSeconds
                    try addTreatments(&p, source, from: cursor, to: end)
                    feed(&p, try source.glucose(fromUTC: cursor, toUTC: end), lastWanted: lastWanted, wanted: wanted, into: &out)
                    cursor = end
                }
                // The state is the same for every later view only when the last chunk was whole.
                if let checkpoints, p.forecaster.personal != nil, !cutShort {
                    checkpoints.store(key, .init(forecaster: p.forecaster.copy(), fedThrough: p.fedThrough, treatmentsUntil: p.treatmentsUntil,
                                                 end: cursor, digest: try digest(source, from: first, to: cursor), checkedAt: version))
                }
            }
        }
        // Then only each wanted reading's recent past matters.
        let needed = recentPast(recent, wanted: issueTimes, memory: Self.recentSeconds(steps: steps))
        if let firstRecent = needed.first(where: { $0.start > p.fedThrough })?.start, p.fedThrough < lastWanted {
            try addTreatments(&p, source, from: firstRecent - Self.treatmentSeconds, to: lastWanted + 1)
            feed(&p, needed, lastWanted: lastWanted, wanted: wanted, into: &out)
        }
        return out
    }

    private func addTreatments(_ p: inout Progress, _ source: ChartDataSource, from: Int64, to: Int64) throws {
        guard model == .ridgeTreatments, to > max(from, p.treatmentsUntil) else { return }
        for e in try source.events(fromUTC: max(from, p.treatmentsUntil), toUTC: to) where e.kind == .meal || e.kind == .insulin {
            p.forecaster.addTreatment(time: e.start, carbs: e.carbs ?? 0, insulin: e.insulin ?? 0)
        }
        p.treatmentsUntil = to
    }

    private func feed(_ p: inout Progress, _ readings: [Measurement], lastWanted: Int64, wanted: Set<Int64>, into out: inout [Int64: DayView.Forecast]) {
        for r in readings where r.start > p.fedThrough && r.start <= lastWanted {
            let issued = p.forecaster.add(time: r.start, utcOffset: r.utcOffset, value: r.value)
            p.fedThrough = r.start
            guard wanted.contains(r.start), let f = issued else { continue }
            var points: [(utc: Int64, mgdl: Double)] = []
            for (h, v) in f.values.enumerated() { points.append((f.origin + Int64(300 * (h + 1)), v)) }
            out[r.start] = DayView.Forecast(model: model.rawValue, issuedAt: f.origin, offset: r.utcOffset, origin: r.value,
                                            points: points)
        }
    }

    /// The readings of `recent` (time order) within `memory` before some wanted time: the older
    /// ones would have left the forecaster's history before that time came.
    private func recentPast(_ recent: [Measurement], wanted: [Int64], memory: Int64) -> [Measurement] {
        let times = wanted.sorted()
        var j = 0
        return recent.filter { r in
            while j < times.count && times[j] < r.start { j += 1 }
            return j < times.count && times[j] - memory <= r.start
        }
    }

    /// What the streaming phase read from `first` to `end`: the readings, and the doses when the model uses them.
    private func digest(_ source: ChartDataSource, from first: Int64, to end: Int64) throws -> UInt64 {
        var d = RowDigest()
        for r in try source.glucose(fromUTC: first, toUTC: end) {
            d.add(r.start)
            d.add(Int64(r.utcOffset))
            d.add(r.value)
        }
        if model == .ridgeTreatments {
            for e in try source.events(fromUTC: first, toUTC: end) where e.kind == .meal || e.kind == .insulin {
                d.add(e.start)
                d.add(e.carbs ?? 0)
                d.add(e.insulin ?? 0)
            }
        }
        return d.value
    }
}
