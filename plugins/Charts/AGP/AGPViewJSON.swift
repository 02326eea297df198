import HealthPipeCore

/// `healthpipe.chart.agp` version 1 (docs/charts.md#agp).
extension AGPView {
    public static let schemaVersion = 1

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 128 * 1024)
        ChartJSON.begin(&w, view: "agp", version: Self.schemaVersion, subject: subject, unit: unit)
        ChartJSON.period(&w, firstDay, lastDay)
        w.field("days", days)

        let s = statistics
        w.key("statistics"); w.beginObject()
        w.key("readings"); w.int(s.readings)
        w.key("days_with_data"); w.int(s.daysWithData)
        w.key("active_percent"); w.double(s.activePercent.map { ($0 * 10).rounded() / 10 })
        w.key("mean"); ChartJSON.glucose(&w, s.mean, unit)
        w.key("gmi_percent"); w.double(s.gmi.map { ($0 * 10).rounded() / 10 })
        w.key("cv_percent"); w.double(s.cv.map { ($0 * 10).rounded() / 10 })
        w.key("sd"); ChartJSON.glucose(&w, s.sd, unit)
        w.key("titr_percent"); w.double(s.tightRange.map { ($0 * 10).rounded() / 10 })
        w.key("gri"); w.double(s.gri.map { ($0 * 10).rounded() / 10 })
        if let zone = s.griZone { w.key("gri_zone"); w.string(zone) } else { w.key("gri_zone"); w.null() }
        w.endObject()
        if let notice = insufficientData { w.key("insufficient_data"); w.string(notice) } else { w.key("insufficient_data"); w.null() }

        w.key("targets"); w.beginObject()
        w.key("source"); w.string("Battelino et al., Diabetes Care 2019;42:1593–1603 (most adults with type 1 or type 2 diabetes)")
        w.key("cv_percent_at_most"); w.int(36)
        w.key("active_percent_at_least"); w.int(70)
        w.key("days_at_least"); w.int(14)
        w.endObject()

        w.objects("ranges", ranges) { w, r in
            w.field("name", r.name); w.field("title", r.title); w.field("range", r.range)
            w.field("percent", (r.percent * 100).rounded() / 100)
            w.field("minutes_per_day", (r.percent * 14.4).rounded())
            w.field("target", r.target)
        }

        w.key("y"); w.beginObject()
        w.key("min"); w.int(0)
        w.key("max"); w.double(unit.agpAxisMax)
        w.key("marks"); w.beginArray(); for t in unit.agpTicks where t > 0 && t < unit.agpAxisMax { w.double(t) }; w.endArray()
        w.key("target_from"); w.double(unit.rounded(70))
        w.key("target_to"); w.double(unit.rounded(180))
        w.endObject()

        // One row per 5-minute time-of-day column, 00:05 … 24:00 (minute 1440), as glucose_agp has them.
        let columns = percentiles.sorted(by: { Self.axisMinute($0.minuteOfDay) < Self.axisMinute($1.minuteOfDay) })
        w.objects("percentiles", columns) { w, p in
            w.field("minute", Self.axisMinute(p.minuteOfDay)); w.field("days", p.count)
            w.field("p5", unit.rounded(p.p05)); w.field("p25", unit.rounded(p.p25)); w.field("p50", unit.rounded(p.p50))
            w.field("p75", unit.rounded(p.p75)); w.field("p95", unit.rounded(p.p95))
        }

        w.objects("daily", daily) { w, d in
            ChartJSON.date(&w, d.day)
            // [minute, value] pairs keep ~300 points a day small.
            w.array("points", d.points) { w, p in
                w.beginArray(); w.double(ChartJSON.minutes(p.minute)); w.double(unit.rounded(p.mgdl)); w.endArray()
            }
        }
        return ChartJSON.end(&w)
    }

    /// `glucose_agp` stores the grid's 24:00 column as minute 0; on a midnight-to-midnight axis it is 1440.
    static func axisMinute(_ m: Int) -> Int { m == 0 ? 1440 : m }
}
