import HealthPipeCore

/// One reading as the daily stage keeps it until the end of the run (48 bytes, spillable).
/// Sorted by (series, local day, local time, source, start, end): readings with one natural key
/// (subject, metric, source, start, end) sit together, in arrival order, so the last one wins.
struct LedgerReading: SortableRecord {
    var start: Int64
    var value: Double
    /// Index into the daily stage's (subject, metric) table.
    var series: UInt32
    var source: UInt32
    var band: UInt32
    var unit: UInt32
    var flags: UInt32
    var day: Int32
    var utcOffset: Int32
    var duration: Int32

    var local: Int64 { start + Int64(utcOffset) }

    init(_ m: Measurement, series: UInt32) {
        start = m.start
        value = m.value
        self.series = series
        source = m.source.id
        band = m.band.id
        unit = m.unit.id
        flags = m.flags.rawValue
        utcOffset = m.utcOffset
        day = Int32(truncatingIfNeeded: m.localDay)
        duration = Int32(clamping: m.end - m.start)
    }

    /// Same natural key (series, source, start, end).
    func sameKey(_ o: LedgerReading) -> Bool {
        series == o.series && source == o.source && start == o.start && duration == o.duration
    }

    static func precedes(_ a: LedgerReading, _ b: LedgerReading) -> Bool {
        if a.series != b.series { return a.series < b.series }
        if a.day != b.day { return a.day < b.day }
        let la = a.local, lb = b.local
        if la != lb { return la < lb }
        if a.source != b.source { return a.source < b.source }
        if a.start != b.start { return a.start < b.start }
        return a.duration < b.duration
    }
}

/// One event as the daily stage (or a time-ordered replay) keeps it: what the day totals and the
/// forecasters need and its natural key (subject, kind, subtype, source, start, amount). Sorted by
/// subject, then time, then the rest of the key: one key's arrivals sit together; the last one wins.
struct LedgerEvent: SortableRecord {
    var start: Int64
    var end: Int64
    var amount: Double
    var carbs: Double
    var insulin: Double
    var subject: UInt32
    var subtype: UInt32
    var source: UInt32
    var kind: UInt8
    /// An episode not ended yet (`RecordFlags.openEnded`).
    var open: Bool
    var utcOffset: Int32

    static let kinds = Event.Kind.allCases

    init(_ e: Event) {
        start = e.start
        end = e.end
        amount = e.insulin ?? e.carbs ?? 0
        carbs = e.carbs ?? 0
        insulin = e.insulin ?? 0
        subject = e.subject.id
        subtype = e.subtype.id
        source = e.source.id
        kind = UInt8(Self.kinds.firstIndex(of: e.kind)!)
        open = e.flags.contains(.openEnded)
        utcOffset = e.utcOffset
    }

    var eventKind: Event.Kind { Self.kinds[Int(kind)] }

    func sameKey(_ o: LedgerEvent) -> Bool {
        subject == o.subject && kind == o.kind && subtype == o.subtype && source == o.source && start == o.start
            && amount.bitPattern == o.amount.bitPattern
    }

    static func precedes(_ a: LedgerEvent, _ b: LedgerEvent) -> Bool {
        if a.subject != b.subject { return a.subject < b.subject }
        if a.start != b.start { return a.start < b.start }
        if a.kind != b.kind { return a.kind < b.kind }
        if a.subtype != b.subtype { return a.subtype < b.subtype }
        if a.source != b.source { return a.source < b.source }
        return a.amount < b.amount
    }

    /// The event as the pipeline carries it (what the ledger kept of it).
    var event: Event {
        Event(subject: Symbol(id: subject), kind: eventKind, subtype: Symbol(id: subtype), source: Symbol(id: source), start: start,
              end: end, utcOffset: utcOffset, carbs: carbs == 0 && eventKind != .meal ? nil : carbs,
              insulin: insulin == 0 && eventKind != .insulin ? nil : insulin, flags: open ? .openEnded : [])
    }
}
