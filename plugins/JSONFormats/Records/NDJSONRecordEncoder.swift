import HealthPipeCore

/// HealthPipe's NDJSON record shapes, written by the hand-written `JSONWriter` (JSONEncoder is far
/// too slow for millions of records): one object per record with a `type` of measurement, event,
/// daily, metrics, forecast, alert or profile. The `ndjson` and `stdout` sinks and the partitioned outputs
/// share it; `ndjson-source` reads it back (`NDJSONRecordMapper`). With `withIDs` every record
/// carries an `id` right after its type (`RecordID`).
struct NDJSONRecordEncoder {
    var writer = JSONWriter(capacity: 1 << 20)
    var withIDs = false
    private var ids = RecordID()

    /// `{"type":…` and, with `withIDs`, the record's `id`: how every record line starts.
    private mutating func begin(_ type: String, id: String?) {
        writer.beginObject()
        writer.field("type", type)
        if let id { writer.field("id", id) }
    }

    /// Where the record came from, then the end of its line.
    private mutating func end(_ p: Provenance) {
        writer.field("file", p.file)
        writer.field("line", p.line)
        end()
    }

    private mutating func end() {
        writer.endObject()
        writer.newline()
    }

    /// Whose readings and of what: the series a record belongs to.
    private mutating func series(_ subject: Symbol, _ metric: Symbol) {
        writer.field("subject", subject)
        writer.field("metric", metric)
    }

    /// A record's instant or span: `end` only when it differs from `start`.
    private mutating func span(_ start: Int64, _ end: Int64, _ utcOffset: Int32) {
        writer.field("start", start)
        if end != start { writer.field("end", end) }
        writer.field("utc_offset", utcOffset)
    }

    /// A metric set: its names as keys (docs/analytics.md), the AGP as an array of columns.
    mutating func encode(_ m: MetricSet) {
        begin("metrics", id: withIDs ? ids.of(m) : nil)
        series(m.subject, m.metric)
        writer.field("from", CivilDate.isoDate(fromDays: m.firstDay))
        writer.field("to", CivilDate.isoDate(fromDays: m.lastDay))
        writer.field("unit", m.unit)
        writer.object("values") { w in for v in m.values { w.key(v.name); w.double(v.value) } }
        if !m.agp.isEmpty {
            writer.objects("agp", m.agp) { w, p in
                w.field("minute", p.minuteOfDay); w.field("n", p.count)
                w.field("p05", p.p05); w.field("p25", p.p25); w.field("p50", p.p50); w.field("p75", p.p75); w.field("p95", p.p95)
            }
        }
        end()
    }

    mutating func encode(_ m: HealthPipeCore.Measurement) {
        begin("measurement", id: withIDs ? ids.of(m) : nil)
        series(m.subject, m.metric)
        writer.field("source", m.source)
        span(m.start, m.end, m.utcOffset)
        writer.field("value", m.value)
        writer.field("unit", m.unit)
        if !m.flags.isEmpty { writer.field("flags", Int64(m.flags.rawValue)) }
        if !m.band.isEmpty { writer.field("band", m.band) }
        if !m.device.isEmpty { writer.key("device"); writer.json(m.device.text) }
        if let meta = m.metadata { writer.key("metadata"); writer.json(meta) }
        end(m.provenance)
    }

    mutating func encode(_ f: ForecastPoint) {
        begin("forecast", id: withIDs ? ids.of(f) : nil)
        series(f.subject, f.metric)
        writer.field("model", f.model)
        writer.field("issued_at", f.issuedAt)
        writer.field("at", f.at)
        writer.field("utc_offset", f.utcOffset)
        writer.field("value", f.value)
        end()
    }

    mutating func encode(_ a: Alert) {
        begin("alert", id: withIDs ? ids.of(a) : nil)
        writer.field("kind", a.kind.rawValue)
        series(a.subject, a.metric)
        writer.field("start", a.start)
        writer.field("end", a.end)
        writer.field("utc_offset", a.utcOffset)
        writer.field("value", a.value)
        writer.field("threshold", a.threshold)
        if !a.model.isEmpty { writer.field("model", a.model) }
        end()
    }

    mutating func encode(_ e: Event) {
        begin("event", id: withIDs ? ids.of(e) : nil)
        writer.field("kind", e.kind.rawValue)
        writer.field("subject", e.subject)
        if !e.subtype.isEmpty { writer.field("subtype", e.subtype) }
        writer.field("source", e.source)
        span(e.start, e.end, e.utcOffset)
        writer.field("carbs_g", ifPresent: e.carbs)
        writer.field("protein_g", ifPresent: e.protein)
        writer.field("fat_g", ifPresent: e.fat)
        writer.field("insulin_u", ifPresent: e.insulin)
        if !e.intensity.isEmpty { writer.field("intensity", e.intensity) }
        writer.field("note", ifPresent: e.note)
        if !e.flags.isEmpty { writer.field("flags", Int64(e.flags.rawValue)) }
        if !e.device.isEmpty { writer.key("device"); writer.json(e.device.text) }
        if let meta = e.metadata { writer.key("metadata"); writer.json(meta) }
        end(e.provenance)
    }

    /// A subject profile: the characteristics HealthPipe reads, and every one as written.
    mutating func encode(_ p: SubjectProfile) {
        begin("profile", id: withIDs ? ids.of(p) : nil)
        writer.field("subject", p.subject)
        writer.field("source", p.source)
        writer.field("date_of_birth", p.dateOfBirth)
        writer.field("biological_sex", p.biologicalSex)
        writer.field("blood_type", p.bloodType)
        writer.field("skin_type", p.skinType)
        writer.key("attributes"); writer.json(p.attributes)
        end(p.provenance)
    }

    mutating func encode(_ d: DailySummary) {
        begin("daily", id: withIDs ? ids.of(d) : nil)
        writer.field("subject", d.subject)
        writer.field("day", CivilDate.isoDate(fromDays: d.day))
        writer.field("metric", d.metric)
        writer.field("unit", d.unit)
        writer.field("n", d.count)
        writer.field("min", d.min); writer.field("mean", d.mean); writer.field("max", d.max); writer.field("sd", d.sd)
        writer.object("bands") { w in for b in d.bandPercents { w.key(b.band.text); w.double(b.percent) } }
        writer.field("hypo", d.hypo)
        writer.field("hyper", d.hyper)
        writer.field("carbs_g", d.carbsGrams)
        writer.field("insulin_u", d.insulinUnits)
        writer.field("exercise_min", d.exerciseMinutes)
        writer.field("illness", d.illness)
        writer.field("stress", d.stress)
        writer.field("total", ifPresent: d.total)
        if !d.totalSources.isEmpty { writer.object("total_sources") { w in for s in d.totalSources { w.key(s.source.text); w.double(s.amount) } } }
        end()
    }
}
