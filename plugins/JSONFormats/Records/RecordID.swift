import HealthPipeCore

/// A record's deterministic id: FNV-1a 128 (`StableHash.FNV128`, 32 hex digits) of its type and
/// natural key — the columns the SQLite and PostgreSQL stores upsert on — joined by the unit separator
/// (0x1F), numbers in decimal. The same record gets the same id on every machine and in every run, so
/// readers of partitioned outputs can drop duplicates (two overlapping exports, a part written twice)
/// by id. The hash state after the repeated fields (type, subject, metric, source) is kept, so a
/// reading costs the bytes of its two times.
struct RecordID {
    private var prefixKey: (UInt32, UInt32, UInt32, UInt32) = (.max, .max, .max, .max)
    private var prefix = StableHash.FNV128()

    mutating func of(_ m: HealthPipeCore.Measurement) -> String {
        var h = start(1, m.subject, m.metric, m.source)
        Self.add(&h, m.start)
        Self.add(&h, m.end)
        return h.hex
    }

    /// Events are keyed like the stores key them: the dose or the carbs is part of the key.
    mutating func of(_ e: Event) -> String {
        var h = start(2, e.subject, Symbol(e.kind.rawValue), e.subtype)
        Self.add(&h, e.source.text)
        Self.add(&h, e.start)
        Self.add(&h, Self.number(e.insulin ?? e.carbs ?? 0))
        return h.hex
    }

    mutating func of(_ d: DailySummary) -> String {
        var h = start(3, d.subject, d.metric, .empty)
        Self.add(&h, CivilDate.isoDate(fromDays: d.day))
        return h.hex
    }

    mutating func of(_ m: MetricSet) -> String {
        var h = start(4, m.subject, m.metric, .empty)
        Self.add(&h, CivilDate.isoDate(fromDays: m.firstDay))
        Self.add(&h, CivilDate.isoDate(fromDays: m.lastDay))
        return h.hex
    }

    mutating func of(_ f: ForecastPoint) -> String {
        var h = start(5, f.subject, f.metric, f.model)
        Self.add(&h, f.issuedAt)
        Self.add(&h, f.at)
        return h.hex
    }

    mutating func of(_ a: Alert) -> String {
        var h = start(6, a.subject, a.metric, Symbol(a.kind.rawValue))
        Self.add(&h, a.start)
        return h.hex
    }

    /// One profile per subject and source, as the stores keep it.
    mutating func of(_ p: SubjectProfile) -> String {
        start(7, p.subject, p.source, .empty).hex
    }

    private static let types = ["", "measurement", "event", "daily", "metrics", "forecast", "alert", "profile"]

    /// The state after the type and three text fields, cached while they repeat.
    private mutating func start(_ type: UInt32, _ a: Symbol, _ b: Symbol, _ c: Symbol) -> StableHash.FNV128 {
        let key = (type, a.id, b.id, c.id)
        if key != prefixKey {
            var h = StableHash.FNV128()
            for byte in Self.types[Int(type)].utf8 { h.add(byte) }
            for s in [a, b, c] { Self.add(&h, s.text) }
            prefix = h
            prefixKey = key
        }
        return prefix
    }

    @inline(__always)
    private static func add(_ h: inout StableHash.FNV128, _ text: String) {
        h.add(0x1F)
        for byte in text.utf8 { h.add(byte) }
    }

    /// An integer's decimal digits, without making a String.
    @inline(__always)
    private static func add(_ h: inout StableHash.FNV128, _ v: Int64) {
        h.add(0x1F)
        DecimalDigits.forEach(v) { h.add($0) }
    }

    private static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : v.description }
}
