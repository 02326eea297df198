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

    /// A metric set: its names as keys (docs/analytics.md), the AGP as an array of columns.
    mutating func encode(_ m: MetricSet) {
        writer.beginObject()
        writer.key("type"); writer.string("metrics")
        if withIDs { writer.key("id"); writer.string(ids.of(m)) }
        writer.key("subject"); writer.string(m.subject.text)
        writer.key("metric"); writer.string(m.metric.text)
        writer.key("from"); writer.string(CivilDate.isoDate(fromDays: m.firstDay))
        writer.key("to"); writer.string(CivilDate.isoDate(fromDays: m.lastDay))
        writer.key("unit"); writer.string(m.unit.text)
        writer.key("values")
        writer.beginObject()
        for v in m.values { writer.key(v.name); writer.double(v.value) }
        writer.endObject()
        if !m.agp.isEmpty {
            writer.key("agp")
            writer.beginArray()
            for p in m.agp {
                writer.beginObject()
                writer.key("minute"); writer.int(p.minuteOfDay)
                writer.key("n"); writer.int(p.count)
                writer.key("p05"); writer.double(p.p05)
                writer.key("p25"); writer.double(p.p25)
                writer.key("p50"); writer.double(p.p50)
                writer.key("p75"); writer.double(p.p75)
                writer.key("p95"); writer.double(p.p95)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        writer.newline()
    }

    mutating func encode(_ m: HealthPipeCore.Measurement) {
        writer.beginObject()
        writer.key("type"); writer.string("measurement")
        if withIDs { writer.key("id"); writer.string(ids.of(m)) }
        writer.key("subject"); writer.string(m.subject.text)
        writer.key("metric"); writer.string(m.metric.text)
        writer.key("source"); writer.string(m.source.text)
        writer.key("start"); writer.int(m.start)
        if m.end != m.start { writer.key("end"); writer.int(m.end) }
        writer.key("utc_offset"); writer.int(Int64(m.utcOffset))
        writer.key("value"); writer.double(m.value)
        writer.key("unit"); writer.string(m.unit.text)
        if !m.flags.isEmpty { writer.key("flags"); writer.int(Int64(m.flags.rawValue)) }
        if !m.band.isEmpty { writer.key("band"); writer.string(m.band.text) }
        if !m.device.isEmpty { writer.key("device"); writer.json(m.device.text) }
        if let meta = m.metadata { writer.key("metadata"); writer.json(meta) }
        writer.key("file"); writer.string(m.provenance.file.text)
        writer.key("line"); writer.int(m.provenance.line)
        writer.endObject()
        writer.newline()
    }

    mutating func encode(_ f: ForecastPoint) {
        writer.beginObject()
        writer.key("type"); writer.string("forecast")
        if withIDs { writer.key("id"); writer.string(ids.of(f)) }
        writer.key("subject"); writer.string(f.subject.text)
        writer.key("metric"); writer.string(f.metric.text)
        writer.key("model"); writer.string(f.model.text)
        writer.key("issued_at"); writer.int(f.issuedAt)
        writer.key("at"); writer.int(f.at)
        writer.key("utc_offset"); writer.int(Int64(f.utcOffset))
        writer.key("value"); writer.double(f.value)
        writer.endObject()
        writer.newline()
    }

    mutating func encode(_ a: Alert) {
        writer.beginObject()
        writer.key("type"); writer.string("alert")
        if withIDs { writer.key("id"); writer.string(ids.of(a)) }
        writer.key("kind"); writer.string(a.kind.rawValue)
        writer.key("subject"); writer.string(a.subject.text)
        writer.key("metric"); writer.string(a.metric.text)
        writer.key("start"); writer.int(a.start)
        writer.key("end"); writer.int(a.end)
        writer.key("utc_offset"); writer.int(Int64(a.utcOffset))
        writer.key("value"); writer.double(a.value)
        writer.key("threshold"); writer.double(a.threshold)
        if !a.model.isEmpty { writer.key("model"); writer.string(a.model.text) }
        writer.endObject()
        writer.newline()
    }

    mutating func encode(_ e: Event) {
        writer.beginObject()
        writer.key("type"); writer.string("event")
        if withIDs { writer.key("id"); writer.string(ids.of(e)) }
        writer.key("kind"); writer.string(e.kind.rawValue)
        writer.key("subject"); writer.string(e.subject.text)
        if !e.subtype.isEmpty { writer.key("subtype"); writer.string(e.subtype.text) }
        writer.key("source"); writer.string(e.source.text)
        writer.key("start"); writer.int(e.start)
        if e.end != e.start { writer.key("end"); writer.int(e.end) }
        writer.key("utc_offset"); writer.int(Int64(e.utcOffset))
        if let v = e.carbs { writer.key("carbs_g"); writer.double(v) }
        if let v = e.protein { writer.key("protein_g"); writer.double(v) }
        if let v = e.fat { writer.key("fat_g"); writer.double(v) }
        if let v = e.insulin { writer.key("insulin_u"); writer.double(v) }
        if !e.intensity.isEmpty { writer.key("intensity"); writer.string(e.intensity.text) }
        if let n = e.note { writer.key("note"); writer.string(n) }
        if !e.flags.isEmpty { writer.key("flags"); writer.int(Int64(e.flags.rawValue)) }
        if !e.device.isEmpty { writer.key("device"); writer.json(e.device.text) }
        if let meta = e.metadata { writer.key("metadata"); writer.json(meta) }
        writer.key("file"); writer.string(e.provenance.file.text)
        writer.key("line"); writer.int(e.provenance.line)
        writer.endObject()
        writer.newline()
    }

    /// A subject profile: the characteristics HealthPipe reads, and every one as written.
    mutating func encode(_ p: SubjectProfile) {
        writer.beginObject()
        writer.key("type"); writer.string("profile")
        if withIDs { writer.key("id"); writer.string(ids.of(p)) }
        writer.key("subject"); writer.string(p.subject.text)
        writer.key("source"); writer.string(p.source.text)
        writer.key("date_of_birth"); writer.string(p.dateOfBirth)
        writer.key("biological_sex"); writer.string(p.biologicalSex)
        writer.key("blood_type"); writer.string(p.bloodType)
        writer.key("skin_type"); writer.string(p.skinType)
        writer.key("attributes"); writer.json(p.attributes)
        writer.key("file"); writer.string(p.provenance.file.text)
        writer.key("line"); writer.int(p.provenance.line)
        writer.endObject()
        writer.newline()
    }

    mutating func encode(_ d: DailySummary) {
        writer.beginObject()
        writer.key("type"); writer.string("daily")
        if withIDs { writer.key("id"); writer.string(ids.of(d)) }
        writer.key("subject"); writer.string(d.subject.text)
        writer.key("day"); writer.string(CivilDate.isoDate(fromDays: d.day))
        writer.key("metric"); writer.string(d.metric.text)
        writer.key("unit"); writer.string(d.unit.text)
        writer.key("n"); writer.int(d.count)
        writer.key("min"); writer.double(d.min)
        writer.key("mean"); writer.double(d.mean)
        writer.key("max"); writer.double(d.max)
        writer.key("sd"); writer.double(d.sd)
        writer.key("bands"); writer.beginObject()
        for b in d.bandPercents { writer.key(b.band.text); writer.double(b.percent) }
        writer.endObject()
        writer.key("hypo"); writer.bool(d.hypo)
        writer.key("hyper"); writer.bool(d.hyper)
        writer.key("carbs_g"); writer.double(d.carbsGrams)
        writer.key("insulin_u"); writer.double(d.insulinUnits)
        writer.key("exercise_min"); writer.double(d.exerciseMinutes)
        writer.key("illness"); writer.bool(d.illness)
        writer.key("stress"); writer.bool(d.stress)
        writer.endObject()
        writer.newline()
    }
}
