import HealthPipeCore

/// `healthpipe.chart.days` version 1 (docs/charts.md#days).
extension DayTable {
    public static let schemaVersion = 1

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 32 * 1024)
        ChartJSON.begin(&w, view: "days", version: Self.schemaVersion, subject: subject, unit: unit)
        w.key("from"); w.string(CivilDate.isoDate(fromDays: firstDay))
        w.key("to"); w.string(CivilDate.isoDate(fromDays: lastDay))
        w.key("filter"); w.beginObject()
        w.key("flags"); w.beginArray(); for f in Flag.allCases where filter.flags.contains(f) { w.string(f.rawValue) }; w.endArray()
        w.key("last_days"); if let n = filter.lastDays { w.int(n) } else { w.null() }
        w.key("favourites_only"); w.bool(filter.favouritesOnly)
        w.endObject()
        w.key("flags"); w.beginArray(); for f in Flag.allCases { w.string(f.rawValue) }; w.endArray()
        let rows = shown
        w.key("total_days"); w.int(self.rows.count)
        w.key("shown_days"); w.int(rows.count)
        w.key("rows"); w.beginArray()
        for r in rows {
            w.beginObject()
            w.key("date"); w.string(CivilDate.isoDate(fromDays: r.day))
            w.key("weekday"); w.string(Fmt.weekday(r.day))
            w.key("readings"); w.int(r.readings)
            w.key("low"); ChartJSON.glucose(&w, r.low, unit)
            w.key("avg"); ChartJSON.glucose(&w, r.avg, unit)
            w.key("high"); ChartJSON.glucose(&w, r.high, unit)
            for f in Flag.allCases { w.key(f.rawValue); w.bool(r.has(f)) }
            w.key("favourite"); w.bool(r.favourite)
            w.key("note"); w.string(r.note)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.newline()
        return w.bytes
    }
}
