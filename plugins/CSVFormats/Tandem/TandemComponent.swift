import HealthPipeCore

/// Registry entry for the Tandem t:connect source.
public let tandemComponent = ComponentDescriptor(
    name: TandemSource.format, role: .source, family: "CSVFormats",
    summary: "Tandem t:connect Therapy Timeline CSV (t:slim X2 pumps with a Dexcom CGM): EGV readings become glucose "
        + "(source Dexcom), BG readings blood_glucose, IOB insulin_on_board, basal rate changes basal_rate insulin events "
        + "(rate in metadata), boluses bolus insulin events (standard + extended delivered) with their carbs as meal events. "
        + "Sections are found by their headers in any order. Times are the pump's local clock: a zone is required.",
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events],
    detect: { sniff in
        let text = sniff.lines(40).joined(separator: "\n").lowercased()
        return text.contains("readings (cgm / bgm)") || text.contains("t:connect therapy timeline")
            || (text.contains("bolusrequestid") && text.contains("eventdatetime")) ? 90 : 0
    },
    build: { b in
        let o = try b.options(CommonOptionFields.self)
        return TandemSource(options: try o.resolve(b))
    })
