import HealthPipeCore

/// `healthpipe.chart.day` version 1 (docs/charts.md#day).
extension DayView {
    public static let schemaVersion = 1

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 64 * 1024)
        ChartJSON.begin(&w, view: "day", version: Self.schemaVersion, subject: subject, unit: unit)
        w.key("date"); w.string(CivilDate.isoDate(fromDays: day))
        w.key("title"); w.string(Fmt.longDate(day))
        w.key("settings"); w.beginObject()
        w.key("basal"); w.bool(showBasal)
        w.key("forecast_model"); w.string(forecast?.model)
        w.key("preset"); w.string(bands.preset)
        w.endObject()

        w.key("x"); w.beginObject()
        w.key("from"); w.string(CivilDate.isoDateTime(seconds: midnight))
        w.key("to"); w.string(CivilDate.isoDateTime(seconds: midnight + 86_400))
        w.key("minutes"); w.int(1440)
        w.key("ticks"); w.beginArray()
        for h in stride(from: 0, through: 24, by: 6) {
            w.beginObject(); w.key("minute"); w.int(h * 60); w.key("label"); w.string(Fmt.pad2(h) + ":00"); w.endObject()
        }
        w.endArray()
        w.endObject()
        w.key("y"); w.beginObject()
        w.key("min"); w.int(0)
        w.key("max"); w.double(unit.axisMax)
        w.key("ticks"); w.beginArray(); for t in unit.ticks { w.double(t) }; w.endArray()
        w.endObject()
        w.key("bands"); ChartJSON.bands(&w, bands, unit: unit, top: unit.axisMax)

        let s = stats
        w.key("summary"); w.beginObject()
        w.key("readings"); w.int(s.count)
        w.key("min"); ChartJSON.glucose(&w, s.min, unit)
        w.key("mean"); ChartJSON.glucose(&w, s.mean, unit)
        w.key("max"); ChartJSON.glucose(&w, s.max, unit)
        w.key("checks"); w.int(checks.count)
        w.endObject()

        // Finger-stick checks (a meter's readings, the BGs a pump was given), apart from the CGM series.
        w.key("checks"); w.beginArray()
        for p in checks {
            w.beginObject()
            writePoint(&w, p)
            w.key("source"); w.string(p.source)
            w.endObject()
        }
        w.endArray()

        w.key("series"); w.beginArray()
        for p in points {
            w.beginObject()
            writePoint(&w, p)
            if p.flags.contains(.belowSensorRange) { w.key("sensor_limit"); w.string("low") }
            if p.flags.contains(.aboveSensorRange) { w.key("sensor_limit"); w.string("high") }
            w.endObject()
        }
        w.endArray()

        w.key("events"); w.beginArray()
        for m in visibleMarkers { writeMarker(&w, m) }
        w.endArray()

        w.key("episodes"); w.beginArray()
        for e in episodes {
            w.beginObject()
            w.key("name"); w.string(e.name)
            w.key("start"); w.string(ChartJSON.local(e.utc, e.offset))
            w.key("end"); w.string(ChartJSON.local(e.endUTC, e.offset))
            w.endObject()
        }
        w.endArray()

        // Delivered basal (U/h): scheduled steps, then temporary rates; hidden with basal insulin.
        w.key("basal"); w.beginArray()
        for b in showBasal ? basal : [] {
            w.beginObject()
            w.key("start"); w.string(ChartJSON.local(b.utc, b.offset))
            w.key("end"); w.string(ChartJSON.local(b.endUTC, b.offset))
            w.key("rate_u_h"); w.double(b.rate)
            w.key("temporary"); w.bool(b.temporary)
            w.key("source"); w.string(b.source)
            w.endObject()
        }
        w.endArray()

        w.key("forecast")
        if let f = forecast {
            w.beginObject()
            w.key("model"); w.string(f.model)
            w.key("issued_at"); w.string(ChartJSON.local(f.issuedAt, f.offset))
            w.key("minute"); w.double(ChartJSON.minutes(Double(LocalDays.local(f.issuedAt, f.offset) - midnight) / 60))
            w.key("value"); w.double(unit.rounded(f.origin))
            w.key("horizon_minutes"); w.int(f.points.count * 5)
            w.key("points"); w.beginArray()
            for p in f.points {
                w.beginObject()
                w.key("time"); w.string(ChartJSON.local(p.utc, f.offset))
                w.key("minute"); w.double(ChartJSON.minutes(Double(LocalDays.local(p.utc, f.offset) - midnight) / 60))
                w.key("value"); w.double(unit.rounded(p.mgdl))
                w.endObject()
            }
            w.endArray()
            w.endObject()
        } else {
            w.null()
        }

        w.key("side_views"); w.beginObject()
        w.key("previous"); writeSides(&w, previous)
        w.key("next"); writeSides(&w, next)
        w.endObject()

        w.key("navigation"); w.beginObject()
        w.key("previous"); w.string(CivilDate.isoDate(fromDays: navigation.previous))
        w.key("next"); w.string(CivilDate.isoDate(fromDays: navigation.next))
        w.key("today"); w.string(CivilDate.isoDate(fromDays: navigation.today))
        w.key("first"); w.string(navigation.first.map { CivilDate.isoDate(fromDays: $0) })
        w.key("last"); w.string(navigation.last.map { CivilDate.isoDate(fromDays: $0) })
        w.endObject()
        w.endObject()
        w.newline()
        return w.bytes
    }

    /// A reading's or a check's time, minute of the day, value in the view's unit and band.
    private func writePoint(_ w: inout JSONWriter, _ p: Point) {
        w.key("time"); w.string(ChartJSON.local(p.utc, p.offset))
        w.key("minute"); w.double(ChartJSON.minutes(p.minute))
        w.key("value"); w.double(unit.rounded(p.mgdl))
        w.key("band"); w.string(bands.bands[bands.index(of: p.mgdl)].name)
    }

    private func writeMarker(_ w: inout JSONWriter, _ m: Marker) {
        w.beginObject()
        w.key("kind"); w.string(m.kind.rawValue)
        w.key("time"); w.string(ChartJSON.local(m.utc, m.offset))
        w.key("clock"); w.string(m.clock)
        w.key("minute"); w.double(ChartJSON.minutes(m.minute))
        w.key("title"); w.string(m.title)
        switch m.kind {
        case .meal:
            w.key("name"); w.string(m.name.isEmpty ? nil : m.name)
            w.key("carbs_g"); w.double(m.carbs)
            w.key("protein_g"); w.double(m.protein)
            w.key("fat_g"); w.double(m.fat)
        case .exercise:
            w.key("name"); w.string(m.name.isEmpty ? nil : m.name)
            w.key("duration_minutes"); w.double(m.durationMinutes)
            w.key("intensity"); w.string(m.intensity.isEmpty ? nil : m.intensity)
        case .insulin:
            w.key("units"); w.double(m.insulin)
            w.key("type"); w.string(m.insulinType.isEmpty ? nil : m.insulinType)
        }
        w.key("source"); w.string(m.source)
        w.key("text"); w.string(m.detail)
        w.endObject()
    }

    private func writeSides(_ w: inout JSONWriter, _ days: [SideDay]) {
        w.beginArray()
        for d in days {
            w.beginObject()
            ChartJSON.date(&w, d.day)
            w.field("readings", d.count)
            w.key("min"); ChartJSON.glucose(&w, d.min, unit)
            w.key("mean"); ChartJSON.glucose(&w, d.mean, unit)
            w.key("max"); ChartJSON.glucose(&w, d.max, unit)
            w.endObject()
        }
        w.endArray()
    }
}
