import HealthPipeCore

/// Registry entry for the Tandem t:connect source.
public let tandemComponent = ComponentDescriptor(
    name: TandemSource.format, role: .source, family: "CSVFormats",
    summary: """
        Tandem t:connect / Tandem Source CSV (t:slim X2 and Mobi pumps with a Dexcom CGM), the sectioned Therapy Timeline \
        and the current export and Source Daily Timeline (`Readings (mg/dL)` EGV and `BG (mg/dL)` sections, bolus table by \
        CompletionDateTime): EGV readings become glucose (source Dexcom), BG readings blood_glucose, IOB insulin_on_board, \
        basal rate changes basal_rate measurements (U/h; with a Duration, over its span), boluses bolus insulin events (InsulinDelivered, \
        the extended part included) with their carbs as meal events. \
        Sections are found by their headers in any order. Times are the pump's local clock: a zone is required.
        """,
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events],
    detect: { sniff in
        let text = sniff.lines(40).joined(separator: "\n").lowercased().replacingOccurrences(of: "\"", with: "")
        if text.contains("readings (cgm / bgm)") || text.contains("t:connect therapy timeline")
            || (text.contains("bolusrequestid") && text.contains("eventdatetime")) { return 90 }
        // The current export: `DeviceType,SerialNumber,Description,EventDateTime,Readings (mg/dL)`.
        return text.contains("devicetype,serialnumber,description,eventdatetime,") ? 90 : 0
    },
    // Words of both layouts' preamble and sections, for the nearest-format hint.
    signature: ["tandem diabetes care", "devicetype", "serialnumber", "eventdatetime", "readings (mg/dl)", "completiondatetime"],
    build: { b in
        TandemSource(options: try CSVCommonOptions.read(b))
    })
