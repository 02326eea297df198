import HealthPipeCore

/// Per subject, metric and local day: count, min, max, mean, SD, band shares, hypo/hyper flags,
/// and the day's carbs, insulin, exercise minutes and illness/stress flags — the seeds' day log.
/// A metric that adds up (`MetricCatalogue`: steps, distance, energy, sleep) also gets the day's
/// total, each minute counted once when sources overlap (`DayTotal`, `SourcePriority`).
/// For glucose it also emits `MetricSet`s (the CGM metric set of docs/analytics.md) per day or for
/// a period, with the period's event totals and hypo/hyper day counts.
///
/// Exact whatever the order of arrival: every reading and event is kept in a ledger (spilled to a
/// scratch file beyond a bound, so memory stays flat) and nothing is emitted before the input ends.
/// Each natural key counts once (the last arrival wins), as in the database; days are local days of
/// each reading's own offset. Resampled grid values are derived, not readings, and are not counted.
public final class DailyTransform: Transform {
    struct SeriesKey: Hashable { var subject: Symbol, metric: Symbol }

    let hypoBelow: Double
    let hyperAbove: Double
    let glucoseMetrics: Set<Symbol>
    public let per: MetricPeriod?
    let options: GlucoseMetrics.Options
    /// How long an illness or stress marker without an end lasts (`EpisodeSpan`).
    let markerSeconds: Int64
    /// Which source counts in a minute two sources recorded, for the day totals (`DayTotal`).
    let sourcePriority: SourcePriority
    private let readings: ExternalSorter<LedgerReading>
    private let events: ExternalSorter<LedgerEvent>
    private var series: [SeriesKey] = []
    private var seriesIndex: [SeriesKey: UInt32] = [:]
    static let activity = Symbol("activity")

    /// Thresholds in mg/dL: a glucose reading below `hypoBelow` marks a hypo day, above `hyperAbove` a
    /// hyper day. `per` chooses the metric sets (nil: none); `options` their grid settings.
    public init(hypoBelow: Double, hyperAbove: Double, glucoseMetrics: Set<Symbol> = [Metrics.glucose],
                per: MetricPeriod? = .day, options: GlucoseMetrics.Options = .init(), readingsInMemory: Int = 1 << 16,
                markerSeconds: Int64 = EpisodeSpan.defaultMarkerSeconds, sourcePriority: SourcePriority = .init()) {
        self.markerSeconds = markerSeconds
        self.sourcePriority = sourcePriority
        self.hypoBelow = hypoBelow
        self.hyperAbove = hyperAbove
        self.glucoseMetrics = glucoseMetrics
        self.per = per
        self.options = options
        readings = ExternalSorter(purpose: "daily readings", runCapacity: readingsInMemory)
        events = ExternalSorter(purpose: "daily events", runCapacity: max(2, readingsInMemory / 4))
    }

    /// Runs of readings written to the scratch file so far.
    var spilledRuns: Int { readings.spilledRuns }

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var last: (key: SeriesKey, index: UInt32)?
        for m in batch.measurements where m.value.isFinite && !m.flags.contains(.interpolated) {
            let key = SeriesKey(subject: m.subject, metric: m.metric)
            let index: UInt32
            if let l = last, l.key == key { index = l.index } else {
                index = seriesIndex[key] ?? register(key)
                last = (key, index)
            }
            try readings.append(LedgerReading(m, series: index))
        }
        for e in batch.events { try events.append(LedgerEvent(e)) }
    }

    private func register(_ key: SeriesKey) -> UInt32 {
        let i = UInt32(series.count)
        series.append(key)
        seriesIndex[key] = i
        return i
    }

    /// Glucose series get bands, hypo/hyper flags and metric sets: a glucose metric in mg/dL.
    private func isGlucose(_ series: UInt32, unit: Symbol) -> Bool {
        glucoseMetrics.contains(self.series[Int(series)].metric) && unit == CanonicalUnits.glucose
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { try finish(emit: $0) }
    }

    private func finish(emit: @escaping (RecordBatch) throws -> Void) throws {
        let (collected, openEpisodes) = try EventDays.collect(events, markerSeconds: markerSeconds)
        // Open episodes flag the days they reach that have a row: those with readings or events.
        var eventDays = collected
        for (key, ev) in eventDays { if let o = openEpisodes[key.subject] { eventDays[key] = o.applied(to: ev, day: key.day) } }
        func eventDay(_ key: SubjectDay) -> EventDay {
            eventDays[key] ?? openEpisodes[key.subject].map { $0.applied(to: EventDay(), day: key.day) } ?? EventDay()
        }
        var out = DailyOutput(emit: emit)
        var daysWithReadings = Set<SubjectDay>()
        var period = PeriodCollector(per: per, options: options)
        var unitKnown = Array(repeating: false, count: series.count)
        var assembler = DayAssembler(series: series.count, collectValues: per != nil, hypoBelow: hypoBelow, hyperAbove: hyperAbove,
                                     sourcePriority: sourcePriority)
        for (i, key) in series.enumerated() { assembler.addsUp[i] = MetricCatalogue.dayAggregation(key.metric.text).addsUp }
        func finished(_ d: DayAssembler.Day) throws {
            let key = series[Int(d.series)]
            let subjectDay = SubjectDay(subject: key.subject, day: d.day)
            daysWithReadings.insert(subjectDay)
            try out.add(summary(key, d, events: eventDay(subjectDay)))
            guard d.glucose, let per else { return }
            if per == .day {
                let r = GlucoseMetrics.compute(times: d.times, values: d.values, options: options, withAGP: false)
                try out.add(MetricSet(subject: key.subject, metric: key.metric, unit: d.stats.unit, firstDay: d.day,
                                      lastDay: d.day, values: r.values))
            } else if let done = period.add(d, key: key) {
                try out.add(withTotals(done.set, eventDays: eventDays, open: openEpisodes, glucoseDays: done.dayFlags))
            }
        }
        try readings.drain { r in
            // A series is glucose by its metric and the unit its readings carry.
            let s = Int(r.series)
            if !unitKnown[s] {
                unitKnown[s] = true
                assembler.glucose[s] = isGlucose(r.series, unit: Symbol(id: r.unit))
            }
            try assembler.add(r, finished: finished)
        }
        try assembler.finish(finished)
        if let done = period.finish() { try out.add(withTotals(done.set, eventDays: eventDays, open: openEpisodes, glucoseDays: done.dayFlags)) }

        // Days with events but no readings still get a row, so their totals are not lost.
        let eventOnly = eventDays.filter { !daysWithReadings.contains($0.key) }
            .sorted { ($0.key.subject.text, $0.key.day) < ($1.key.subject.text, $1.key.day) }
        for (day, ev) in eventOnly {
            try out.add(DailySummary(subject: day.subject, metric: Self.activity, day: day.day, unit: .empty, count: 0,
                                     min: .nan, max: .nan, mean: .nan, sd: nil, bandPercents: [], hypo: false, hyper: false,
                                     carbsGrams: ev.carbs, insulinUnits: ev.insulin, exerciseMinutes: ev.exerciseMinutes,
                                     illness: ev.illness, stress: ev.stress))
        }
        try out.flush()
        series.removeAll()
        seriesIndex.removeAll()
    }

    /// The summary row of one metric's day.
    private func summary(_ key: SeriesKey, _ d: DayAssembler.Day, events ev: EventDay) -> DailySummary {
        let m = d.stats
        let shares = m.bandCounts.map { BandShare(band: Symbol(id: $0.band), percent: 100 * Double($0.count) / Double(m.count)) }
            .sorted { $0.band.text < $1.band.text }
        return DailySummary(subject: key.subject, metric: key.metric, day: d.day, unit: m.unit, count: m.count,
                            min: m.min, max: m.max, mean: m.mean, sd: m.sd, bandPercents: shares,
                            hypo: m.below, hyper: m.above, carbsGrams: ev.carbs, insulinUnits: ev.insulin,
                            exerciseMinutes: ev.exerciseMinutes, illness: ev.illness, stress: ev.stress, total: d.total?.total,
                            totalSources: d.total?.bySource ?? [])
    }

    /// Adds a period's event totals and hypo/hyper day counts to its metric set.
    private func withTotals(_ set: MetricSet, eventDays: [SubjectDay: EventDay], open: [Symbol: EventDays.Open],
                            glucoseDays: [Int64: (Bool, Bool)]) -> MetricSet {
        var s = set
        var carbs = 0.0, insulin = 0.0, exercise = 0.0, illness = 0.0, stress = 0.0, hypo = 0.0, hyper = 0.0
        for d in set.firstDay...max(set.firstDay, set.lastDay) {
            let withOpen = glucoseDays[d] != nil ? open[set.subject].map { $0.applied(to: EventDay(), day: d) } : nil
            if let e = eventDays[SubjectDay(subject: set.subject, day: d)] ?? withOpen {
                carbs += e.carbs
                insulin += e.insulin
                exercise += e.exerciseMinutes
                if e.illness { illness += 1 }
                if e.stress { stress += 1 }
            }
            if let (below, above) = glucoseDays[d] {
                if below { hypo += 1 }
                if above { hyper += 1 }
            }
        }
        s.values += [NamedValue("hypo_days", hypo), NamedValue("hyper_days", hyper), NamedValue("carbs_g", carbs),
                     NamedValue("insulin_u", insulin), NamedValue("exercise_min", exercise),
                     NamedValue("illness_days", illness), NamedValue("stress_days", stress)]
        return s
    }
}
