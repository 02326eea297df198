import HealthPipeCore

/// `healthpipe.chart.days` version 1 (docs/charts.md#days).
extension DayTable {
    public static let schemaVersion = 1

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 32 * 1024)
        ChartJSON.begin(&w, view: "days", version: Self.schemaVersion, subject: subject, unit: unit)
        ChartJSON.period(&w, firstDay, lastDay)
        w.object("filter") { w in
            w.array("flags", Flag.allCases.filter { self.filter.flags.contains($0) }) { w, f in w.string(f.rawValue) }
            w.key("last_days"); if let n = filter.lastDays { w.int(n) } else { w.null() }
            w.field("favourites_only", filter.favouritesOnly)
        }
        w.array("flags", Flag.allCases) { w, f in w.string(f.rawValue) }
        let rows = shown
        w.field("total_days", self.rows.count)
        w.field("shown_days", rows.count)
        w.objects("rows", rows) { w, r in
            ChartJSON.date(&w, r.day)
            w.field("readings", r.readings)
            w.field("checks", r.checks)
            // low/avg/high are the checks' on a day without CGM readings.
            w.field("range_from_checks", r.rangeFromChecks)
            w.key("low"); ChartJSON.glucose(&w, r.low, unit)
            w.key("avg"); ChartJSON.glucose(&w, r.avg, unit)
            w.key("high"); ChartJSON.glucose(&w, r.high, unit)
            for f in Flag.allCases { w.key(f.rawValue); w.bool(r.has(f)) }
            w.field("favourite", r.favourite)
            w.field("note", r.note)
        }
        return ChartJSON.end(&w)
    }
}
