import HealthPipeCore

/// The envelope every view's JSON starts with (docs/charts.md): which view, which version of its
/// schema, whose data and in which unit. A reader checks `schema` and `version` before anything else.
enum ChartJSON {
    static func begin(_ w: inout JSONWriter, view: String, version: Int, subject: String, unit: DisplayUnit?) {
        w.beginObject()
        w.key("schema"); w.string("healthpipe.chart." + view)
        w.key("version"); w.int(version)
        w.key("subject"); w.string(subject)
        if let unit { w.key("unit"); w.string(unit.rawValue) }
    }

    /// The view's period: `from` and `to` as local dates.
    static func period(_ w: inout JSONWriter, _ firstDay: Int64, _ lastDay: Int64) {
        w.field("from", CivilDate.isoDate(fromDays: firstDay))
        w.field("to", CivilDate.isoDate(fromDays: lastDay))
    }

    /// A row's local day: its `date` and `weekday`.
    static func date(_ w: inout JSONWriter, _ day: Int64) {
        w.field("date", CivilDate.isoDate(fromDays: day))
        w.field("weekday", Fmt.weekday(day))
    }

    /// Closes the envelope `begin` opened: the view's bytes, one line.
    static func end(_ w: inout JSONWriter) -> [UInt8] {
        w.endObject()
        w.newline()
        return w.bytes
    }

    /// `YYYY-MM-DDTHH:MM:SS` local time of a UTC instant.
    static func local(_ utc: Int64, _ offset: Int32) -> String { CivilDate.isoDateTime(seconds: LocalDays.local(utc, offset)) }

    /// A glucose value in the view's unit, rounded for JSON; null when absent.
    static func glucose(_ w: inout JSONWriter, _ mgdl: Double?, _ unit: DisplayUnit) {
        w.double(mgdl.map { unit.rounded($0) })
    }

    static func minutes(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    /// The bands with their edges in the unit (the last band ends at the axis top) and their labels.
    static func bands(_ w: inout JSONWriter, _ bands: ChartBands, unit: DisplayUnit, top: Double) {
        w.beginArray()
        for (i, b) in bands.bands.enumerated() {
            w.beginObject()
            w.field("name", b.name); w.field("title", b.title); w.field("range", bands.rangeText(i, unit: unit))
            w.field("from", b.lower.map { (unit.edgeValue($0) * 10).rounded() / 10 } ?? 0)
            w.field("to", b.upper.map { (unit.edgeValue($0) * 10).rounded() / 10 } ?? top)
            w.field("level", b.level); w.field("fill", b.fill); w.field("ink", b.ink)
            w.endObject()
        }
        w.endArray()
    }
}
