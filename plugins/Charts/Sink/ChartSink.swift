import HealthPipeAnalytics
import HealthPipeCore

/// The `chart` sink: writes the chart data of the views it is asked for while records stream past
/// (docs/charts.md): `<path>/<subject>/day/YYYY-MM-DD.json` for every day with readings or events,
/// `<path>/<subject>/agp/FROM_TO.json` for the last `agp_days` days, `<path>/<subject>/days.json`
/// for the day table. Each file is written whole into a temporary file and renamed into place.
public final class ChartSink: Sink, OutputChecking {
    public enum View: String, CaseIterable, Sendable { case day, agp, days }

    let folder: String
    let views: Set<View>
    let settings: ViewSettings
    let agpDays: Int
    private var windows: [Symbol: ChartWindow] = [:]
    private var order: [Symbol] = []
    public private(set) var written: [String] = []

    public init(folder: String, views: Set<View>, settings: ViewSettings, agpDays: Int = 14) {
        self.folder = folder
        self.views = views
        self.settings = settings
        self.agpDays = agpDays
    }

    public func open(run: RunInfo, context: StageContext) throws {}

    private func window(_ subject: Symbol) -> ChartWindow {
        if let w = windows[subject] { return w }
        let w = ChartWindow(subject: subject.text, model: settings.model, horizonMinutes: settings.horizonMinutes)
        windows[subject] = w
        order.append(subject)
        return w
    }

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        var touched: Set<Symbol> = []
        for m in batch.measurements where m.metric == Metrics.glucose && !m.flags.contains(.interpolated) && m.value.isFinite {
            window(m.subject).add(m)
            touched.insert(m.subject)
        }
        for m in batch.measurements where m.metric == Metrics.bloodGlucose && m.value.isFinite {
            window(m.subject).addCheck(m)
            touched.insert(m.subject)
        }
        for m in batch.measurements where m.metric == BasalRates.metric {
            window(m.subject).addBasalRate(m)
            touched.insert(m.subject)
        }
        for e in batch.events {
            window(e.subject).add(e)
            touched.insert(e.subject)
        }
        for s in batch.dailySummaries { window(s.subject).add(s) }
        for subject in touched {
            let w = windows[subject]!
            try drawDays(w, w.readyDays())
        }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        // An interrupted or failed run leaves what it wrote; only a completed one draws the rest.
        guard outcome == .completed else { return }
        for subject in order {
            let w = windows[subject]!
            try drawDays(w, w.remainingDays())
            if views.contains(.agp), let last = w.lastDay {
                let first = max(w.firstDay ?? last, last - Int64(agpDays) + 1)
                var readings: [Measurement] = []
                for d in first...last { readings += w.readings[d] ?? [] }
                let view = AGPBuilder.build(subject: w.subject, firstDay: first, lastDay: last, readings: readings, unit: settings.unit)
                try emit(view.json(), w.subject, "agp", CivilDate.isoDate(fromDays: first) + "_" + CivilDate.isoDate(fromDays: last))
            }
            if views.contains(.days), !w.rows.isEmpty {
                let days = w.rows.keys.sorted()
                let table = DayTable(subject: w.subject, firstDay: days[0], lastDay: days[days.count - 1], unit: settings.unit,
                                     rows: Array(w.rows.values))
                try emit(table.json(), w.subject, nil, "days")
            }
            if w.lateRecords > 0 {
                context.warn("\(w.lateRecords) record(s) of '\(w.subject)' arrived after their day's chart was written; "
                             + "`healthpipe chart` on the store includes them")
            }
        }
    }

    /// Draws `days` (when the day view is wanted) and frees what no later view needs.
    private func drawDays(_ w: ChartWindow, _ days: [Int64]) throws {
        guard let lastDrawn = days.last else { return }
        defer { w.drawn(through: lastDrawn, keepDays: views.contains(.agp) ? agpDays : 3) }
        guard views.contains(.day) else { return }
        let all = w.readings.values.flatMap { $0 }
        let scheme = settings.scheme ?? ChartBands.detectPreset(all) ?? .seeds
        let builder = DayViewBuilder(subject: w.subject, bands: ChartBands(scheme: scheme), settings: settings, firstDay: w.firstDay,
                                     lastDay: w.lastDay, today: settings.today ?? CivilDate.floorDiv(Clock.nowSeconds(), 86_400))
        for d in days {
            let view = builder.build(day: d, readingsByDay: w.readings, events: w.events(around: d), forecast: w.forecast(for: d),
                                     basalRates: w.basalRates(before: d), checks: w.checks[d] ?? [])
            try emit(view.json(), w.subject, "day", CivilDate.isoDate(fromDays: d))
        }
    }

    private func emit(_ bytes: [UInt8], _ subject: String, _ view: String?, _ name: String) throws {
        var path = folder + "/" + Self.fileName(subject)
        if let view { path += "/" + view }
        path += "/" + name + ".json"
        try AtomicFile.write(bytes, to: path, what: "chart")
        written.append(path)
    }

    /// A subject name as a folder name: anything but letters, digits, '.', '-' and '_' becomes '_'.
    static func fileName(_ s: String) -> String {
        let safe = String(s.unicodeScalars.map { c -> Character in
            (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "." || c == "-" || c == "_") && c.isASCII ? Character(c) : "_"
        })
        return safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "_" : safe
    }
}
