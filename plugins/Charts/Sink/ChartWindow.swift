import HealthPipeAnalytics
import HealthPipeCore

/// One subject's records as they stream past the `chart` sink: a few days of readings and events
/// (a day view needs its three neighbours on each side, the AGP its last N days), the forecast
/// issued at each day's last reading, and one day-table row per day. A day is drawn once every
/// input file of the subject has moved past its next three days (one day of disorder tolerated),
/// so memory stays at about `keepDays` days of readings however long the stream.
final class ChartWindow {
    let subject: String
    private(set) var readings: [Int64: [Measurement]] = [:]
    private(set) var events: [Int64: [Event]] = [:]
    /// `basal_rate` readings by local day (a scheduled rate holds into the next day).
    private var basal: [Int64: [Measurement]] = [:]
    /// Finger-stick checks (`blood_glucose`) by local day: a meter user's days are drawn from them.
    private(set) var checks: [Int64: [Measurement]] = [:]
    /// Newest local day seen from each input file.
    private var files: [Symbol: Int64] = [:]
    /// Days at or before this have been drawn (or dropped).
    private(set) var drawnThrough = Int64.min
    private(set) var firstDay: Int64?
    private(set) var lastDay: Int64?
    private(set) var lateRecords = 0
    /// The forecast issued at each day's newest reading so far (nil: the model made none there).
    private var dayForecast: [Int64: (time: Int64, forecast: DayView.Forecast?)] = [:]
    private let forecaster: SubjectForecaster?
    private let modelName: String
    var rows: [Int64: DayTable.Row] = [:]

    init(subject: String, model: ForecastModelKind?, horizonMinutes: Int) {
        self.subject = subject
        forecaster = model.map { SubjectForecaster(model: $0, steps: max(1, horizonMinutes / 5)) }
        modelName = model?.rawValue ?? ""
    }

    func add(_ m: Measurement) {
        guard let day = keep(m, in: &readings) else { return }
        guard let f = forecaster else { return }
        let issued = f.add(time: m.start, utcOffset: m.utcOffset, value: m.value)
        if let latest = dayForecast[day], latest.time >= m.start { return }
        dayForecast[day] = (m.start, issued.map { f in
            DayView.Forecast(model: modelName, issuedAt: f.origin, offset: m.utcOffset, origin: m.value,
                             points: f.values.enumerated().map { (f.origin + Int64(300 * ($0.offset + 1)), $0.element) })
        })
    }

    func add(_ e: Event) {
        if e.kind == .meal || e.kind == .insulin { forecaster?.addTreatment(time: e.start, carbs: e.carbs ?? 0, insulin: e.insulin ?? 0) }
        let day = LocalDays.day(e.start, e.utcOffset)
        guard day > drawnThrough || e.kind == .episode else { lateRecords += 1; return }
        events[day, default: []].append(e)
        advance(e.provenance.file, day)
    }

    func addBasalRate(_ m: Measurement) {
        let day = LocalDays.day(m.start, m.utcOffset)
        guard day > drawnThrough else { lateRecords += 1; return }
        basal[day, default: []].append(m)
        advance(m.provenance.file, day)
    }

    func addCheck(_ m: Measurement) { _ = keep(m, in: &checks) }

    /// Files a glucose reading or check under its local day (a day with either is a day to draw);
    /// the day, or nil when that day was drawn already (a late record, counted).
    private func keep(_ m: Measurement, in byDay: inout [Int64: [Measurement]]) -> Int64? {
        let day = LocalDays.day(m.start, m.utcOffset)
        guard day > drawnThrough else { lateRecords += 1; return nil }
        byDay[day, default: []].append(m)
        firstDay = min(firstDay ?? day, day)
        lastDay = max(lastDay ?? day, day)
        advance(m.provenance.file, day)
        return day
    }

    /// The basal rates a day view of `day` draws: its own and the day before's (a scheduled rate
    /// holds until the next change, at most a day: DayViewBuilder.scheduledRateHolds).
    func basalRates(before day: Int64) -> [Measurement] { (basal[day - 1] ?? []) + (basal[day] ?? []) }

    /// The day table's row of a day from its summaries (as the store's `day_log` view combines them).
    func add(_ s: DailySummary) {
        var row = rows[s.day] ?? DayTable.Row(day: s.day)
        row.add(metric: s.metric.text, n: s.count, min: s.min, mean: s.mean, max: s.max, hypo: s.hypo, hyper: s.hyper,
                exerciseMinutes: s.exerciseMinutes, stress: s.stress, illness: s.illness)
        rows[s.day] = row
    }

    private func advance(_ file: Symbol, _ day: Int64) {
        if day > files[file] ?? .min { files[file] = day }
    }

    /// Days that can be drawn now: every file is two days past their third next day.
    func readyDays() -> [Int64] {
        guard let mark = files.values.min() else { return [] }
        return pendingDays(through: mark - 5)
    }

    /// Every day not drawn yet (the end of the stream).
    func remainingDays() -> [Int64] { pendingDays(through: .max) }

    private func pendingDays(through last: Int64) -> [Int64] {
        let days = Set(readings.keys).union(checks.keys).union(events.keys.filter { events[$0]!.contains { $0.kind != .episode } })
        return days.filter { $0 > drawnThrough && $0 <= last }.sorted()
    }

    func forecast(for day: Int64) -> DayView.Forecast? { dayForecast[day]?.forecast }

    /// Marks days through `day` drawn and frees what no later view needs (`keepDays` back for the AGP).
    func drawn(through day: Int64, keepDays: Int) {
        drawnThrough = max(drawnThrough, day)
        let cut = day - Int64(max(keepDays, 3))
        for d in readings.keys where d < cut { readings[d] = nil }
        for d in events.keys where d < cut { events[d] = nil }
        for d in basal.keys where d < cut { basal[d] = nil }
        for d in checks.keys where d < cut { checks[d] = nil }
        for d in dayForecast.keys where d < cut { dayForecast[d] = nil }
    }

    /// The events a day view of `day` shows: the day's own plus episodes still running.
    func events(around day: Int64) -> [Event] {
        var out: [Event] = []
        for (d, list) in events where d <= day { out += list.filter { d == day || ($0.kind == .episode && LocalDays.day($0.end, $0.utcOffset) >= day) } }
        return out.sorted { $0.start < $1.start }
    }
}
