import HealthPipeAnalytics
import HealthPipeCore

public let chartSinkComponent = ComponentDescriptor(
    name: "chart", role: .sink, family: "Charts",
    summary: """
        Chart data of the seed views as JSON files (docs/charts.md): a day view per local day (glucose in the \
        chosen unit on the bands, meals/exercise/insulin, the forecast from the day's last reading, min/mean/max of \
        the 3 days before and after), the AGP of the last agp_days days, and the day table (from daily summaries). \
        Files go to <path>/<subject>/day/YYYY-MM-DD.json, <path>/<subject>/agp/FROM_TO.json and <path>/<subject>/days.json, \
        each written to a temporary file and renamed into place. A day is written once every input has passed its \
        next three days; for a whole store use `healthpipe chart` or `healthpipe page`.
        """,
    options: [
        OptionDoc("path", "folder", required: true, "where the JSON files go (created if missing)"),
        OptionDoc("views", "list of day | agp | days", default: "[day, agp]", "which views to write"),
        OptionDoc("unit", "mmol/L | mg/dL", default: "mmol/L", "glucose unit of the views"),
        OptionDoc("basal", "boolean", default: "true", "include basal insulin in the day views"),
        OptionDoc("model", "ridge | ar2 | ridge-treatments | none", default: "ridge", "forecast model of the day views"),
        OptionDoc("preset", "seeds | consensus | range", default: "the classify labels of the readings, else seeds", "bands of the day views"),
        OptionDoc("agp_days", "integer ≥ 1", default: "14", "length of the AGP period, ending at the last day with readings"),
    ],
    accepts: [.measurements, .events, .dailySummaries],
    build: { b in
        var views: Set<ChartSink.View> = []
        for v in try b.value("views") ?? ["day", "agp"] {
            guard let view = ChartSink.View(rawValue: v) else { throw b.error("unknown view '\(v)' (day, agp, days)", option: "views") }
            views.insert(view)
        }
        guard !views.isEmpty else { throw b.error("name at least one view (day, agp, days)", option: "views") }
        var settings: ViewSettings
        do {
            settings = try ViewSettings.parse(unit: b.value("unit"), model: b.value("model"), preset: b.value("preset"))
        } catch let e as ViewSettings.Invalid {
            throw b.error(e.description, option: e.option)
        }
        settings.showBasal = try b.value("basal") ?? true
        let agpDays = try b.wholeNumber("agp_days", .dayCount) ?? 14
        return ChartSink(folder: b.path(try b.required("path")), views: views, settings: settings, agpDays: agpDays)
    })
