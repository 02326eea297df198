import HealthPipeCore

/// Registry entry for the community nightscout-exporter CSV (both sections).
public let nightscoutExporterComponent = ComponentDescriptor(
    name: NightscoutExporterSource.format, role: .source, family: "CSVFormats",
    summary: """
        The community nightscout-exporter CSV: a "# CGM ENTRIES" section (Date M/D/YYYY, Time 12-hour, Glucose (mg/dL), \
        Type, Device, Trend, ID) whose sgv rows become glucose and mbg rows blood_glucose, then a "# TREATMENTS" section \
        (Date, Time, Event Type, Insulin (U), Carbs (g), Notes, ID) whose insulin becomes bolus events, carbs meal events, \
        Temp Basal rows temp_basal insulin events (the file has no rate) and every other row a note event named after its \
        Event Type. Times are the exporter's local clock: a zone is required.
        """,
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events],
    detect: { sniff in
        // Above the nightscout-exporter-cgm adapter (60), which reads the CGM section only.
        let lines = sniff.lines(5).map { $0.lowercased() }
        guard lines.first?.hasPrefix("# cgm entries") == true || lines.first?.hasPrefix("# treatments") == true else { return 0 }
        return lines.contains { $0.contains("glucose (mg/dl)") || $0.contains("event type") } ? 80 : 0
    },
    // Words an export of this kind shows near its start: "unknown format" names the nearest format by them.
    signature: ["# cgm entries", "glucose (mg/dl)", "trend", "# treatments", "event type", "insulin (u)"],
    build: { b in
        NightscoutExporterSource(options: try CSVCommonOptions.read(b))
    })
