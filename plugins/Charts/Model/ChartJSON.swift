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
            w.key("name"); w.string(b.name)
            w.key("title"); w.string(b.title)
            w.key("range"); w.string(bands.rangeText(i, unit: unit))
            w.key("from"); w.double(b.lower.map { (unit.edgeValue($0) * 10).rounded() / 10 } ?? 0)
            w.key("to"); w.double(b.upper.map { (unit.edgeValue($0) * 10).rounded() / 10 } ?? top)
            w.key("level"); w.int(b.level)
            w.key("fill"); w.string(b.fill)
            w.key("ink"); w.string(b.ink)
            w.endObject()
        }
        w.endArray()
    }
}
