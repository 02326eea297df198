import HealthPipeCore

/// One table's rows waiting for the next transaction, for tables whose last row per key wins
/// (profiles, derived rows, the resample grid): COPY text with `hp_order`, the arrival order, so
/// that only the last row of a key staged twice is moved. Readings go through `StagedReadings`.
struct StagedTable {
    let table: PGTable
    var buffer = CopyBuffer()
    /// Whether a key may have come twice (then only the last row of each key is moved).
    var duplicates = false

    init(_ table: PGTable) { self.table = table }

    var isEmpty: Bool { buffer.isEmpty }

    /// Ends a row with its arrival order.
    mutating func endRow(subject: Symbol) {
        buffer.int(Int64(buffer.rows))
        buffer.endRow()
    }

    mutating func reset() {
        buffer.reset()
        duplicates = false
    }

    /// COPYs the rows into the stage, runs `replacing` (a delete of rows they replace whole) and moves
    /// them. `newKeys`: their keys are most likely not stored (an import's rows of fresh days), so a
    /// plain INSERT — half the upsert's cost — is tried first, undone should a key be there.
    ///
    /// New keys that replace nothing are COPYed straight into the table (no stage, no INSERT … SELECT:
    /// about half the cost), undone the same way should a key be there or come twice.
    func flush(_ db: PGConnection, replacing: String? = nil, newKeys: Bool = false) throws {
        guard !buffer.isEmpty else { return }
        let direct = newKeys && replacing == nil
        if direct, try db.newKeys({ try db.copy(into: table.name, columns: table.columns, rows: withoutOrder) }) { return }
        try db.copy(into: table.stage, columns: table.copyColumns, rows: buffer.bytes)
        if let replacing { try db.execute(replacing) }
        if try !newKeys || direct || !db.newKeys({ try db.query(table.insert) }) {
            try db.query(table.upsert(lastOfEachKey: duplicates))
        }
        try db.execute("TRUNCATE \(table.stage)")
    }
}

extension StagedTable {
    /// The staged rows without their last field, `hp_order`: the table's own columns.
    var withoutOrder: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.bytes.count)
        buffer.bytes.withUnsafeBufferPointer { b in
            var start = 0, lastTab = 0
            for i in 0..<b.count {
                if b[i] == 0x09 { lastTab = i }
                if b[i] == 0x0A {
                    out.append(contentsOf: b[start..<lastTab])
                    out.append(0x0A)
                    start = i + 1
                }
            }
        }
        return out
    }
}

/// The row of each record kind, in its table's column order.
extension CopyBuffer {
    mutating func measurement(_ m: HealthPipeCore.Measurement, series: Int64, importID: Int64?, deviceID: Int64?) {
        int(series); int(m.start); int(m.end); double(m.value); int(Int64(m.utcOffset))
        text(m.unit); int(Int64(m.flags.rawValue)); textOrNull(m.band)
        int(importID); int(importID == nil ? nil : m.provenance.line); text(m.metadata); int(deviceID)
    }

    mutating func event(_ e: Event, kind: Symbol, importID: Int64?, deviceID: Int64?) {
        text(e.subject); text(kind); text(e.subtype); text(e.source); int(e.start); double(e.insulin ?? e.carbs ?? 0); int(e.end)
        int(Int64(e.utcOffset)); double(e.carbs); double(e.protein); double(e.fat); double(e.insulin); textOrNull(e.intensity)
        text(e.note); int(Int64(e.flags.rawValue)); int(importID); int(importID == nil ? nil : e.provenance.line)
        text(e.metadata); int(deviceID)
    }

    mutating func profile(_ p: SubjectProfile, importID: Int64?) {
        text(p.subject); text(p.source); text(p.dateOfBirth); text(p.biologicalSex); text(p.bloodType); text(p.skinType)
        text(p.attributes); int(importID)
    }

    mutating func daily(_ d: DailySummary, day: String) {
        text(d.subject); text(day); text(d.metric); text(d.unit); int(Int64(d.count)); double(d.min); double(d.max); double(d.mean)
        double(d.sd); int(d.hypo ? 1 : 0); int(d.hyper ? 1 : 0); double(d.carbsGrams); double(d.insulinUnits)
        double(d.exerciseMinutes); int(d.illness ? 1 : 0); int(d.stress ? 1 : 0); double(d.total)
        text(SourceShare.json(d.totalSources))
    }

    mutating func forecast(_ f: ForecastPoint) {
        text(f.subject); text(f.metric); text(f.model); int(f.issuedAt); int(f.at); int(Int64(f.utcOffset)); double(f.value)
    }

    mutating func alert(_ a: Alert) {
        text(a.subject); text(a.metric); text(a.kind.rawValue); int(a.start); int(a.end); int(Int64(a.utcOffset))
        double(Double(a.durationSeconds) / 60); double(a.value); double(a.threshold); text(a.model)
    }
}

/// Derived records into their stages: a daily summary with its band shares, a metric set with its
/// values (finite ones, as SQLite keeps them) and AGP rows.
struct DerivedStages {
    var daily = StagedTable(.dailySummaries)
    var bands = StagedTable(.dailyBands)
    var metrics = StagedTable(.glucoseMetrics)
    var agp = StagedTable(.glucoseAGP)
    var forecasts = StagedTable(.forecasts)
    var alerts = StagedTable(.alerts)
    /// The days of the staged daily rows and single-day sets: an import lists them pending with
    /// them, until it settles those still fresh.
    private(set) var days: Set<StagedReadings.PendingDay> = []

    var rows: Int { daily.buffer.rows + bands.buffer.rows + metrics.buffer.rows + agp.buffer.rows + forecasts.buffer.rows + alerts.buffer.rows }

    mutating func add(_ d: DailySummary) {
        let day = CivilDate.isoDate(fromDays: d.day)
        days.insert(StagedReadings.PendingDay(subject: d.subject, day: d.day))
        daily.buffer.daily(d, day: day)
        daily.endRow(subject: d.subject)
        for share in d.bandPercents {
            bands.buffer.text(d.subject); bands.buffer.text(day); bands.buffer.text(d.metric); bands.buffer.text(share.band)
            bands.buffer.double(share.percent)
            bands.endRow(subject: d.subject)
        }
    }

    mutating func add(_ m: MetricSet) {
        let from = CivilDate.isoDate(fromDays: m.firstDay), to = CivilDate.isoDate(fromDays: m.lastDay)
        if m.firstDay == m.lastDay { days.insert(StagedReadings.PendingDay(subject: m.subject, day: m.firstDay)) }
        for v in m.values where v.value.isFinite {
            metrics.buffer.text(m.subject); metrics.buffer.text(m.metric); metrics.buffer.text(from); metrics.buffer.text(to)
            metrics.buffer.text(v.name); metrics.buffer.double(v.value); metrics.buffer.text(m.unit)
            metrics.endRow(subject: m.subject)
        }
        for p in m.agp {
            agp.buffer.text(m.subject); agp.buffer.text(m.metric); agp.buffer.text(from); agp.buffer.text(to)
            agp.buffer.int(Int64(p.minuteOfDay)); agp.buffer.int(Int64(p.count))
            for v in [p.p05, p.p25, p.p50, p.p75, p.p95] { agp.buffer.double(v) }
            agp.endRow(subject: m.subject)
        }
    }

    mutating func add(_ f: ForecastPoint) {
        forecasts.buffer.forecast(f)
        forecasts.endRow(subject: f.subject)
    }

    mutating func add(_ a: Alert) {
        alerts.buffer.alert(a)
        alerts.endRow(subject: a.subject)
    }

    /// Moves everything staged (`newKeys`: see `StagedTable.flush`). A day's band shares and a
    /// period's AGP are replaced whole, as SQLite does.
    mutating func flush(_ db: PGConnection, newKeys: Bool = false) throws {
        let replacing = [
            daily.table.name: """
                DELETE FROM daily_bands b USING (SELECT DISTINCT subject, day, metric FROM \(daily.table.stage)) s
                 WHERE b.subject = s.subject AND b.day = s.day AND b.metric = s.metric
                """,
            agp.table.name: """
                DELETE FROM glucose_agp a USING (SELECT DISTINCT subject, metric, period_start, period_end FROM \(agp.table.stage)) s
                 WHERE a.subject = s.subject AND a.metric = s.metric AND a.period_start = s.period_start AND a.period_end = s.period_end
                """,
        ]
        for var t in [daily, agp, bands, metrics, forecasts, alerts] {
            t.duplicates = true
            try t.flush(db, replacing: replacing[t.table.name], newKeys: newKeys)
        }
        daily.reset(); bands.reset(); metrics.reset(); agp.reset(); forecasts.reset(); alerts.reset()
        days.removeAll()
    }
}
