import HealthPipeCore

/// Registry entry for the Medtronic CareLink source.
public let careLinkComponent = ComponentDescriptor(
    name: CareLinkSource.format, role: .source, family: "CSVFormats",
    summary: """
        Medtronic CareLink CSV export (Guardian Connect, MiniMed pumps, the older Personal "Data Export File" in \
        English, German "Datenexport-Datei" and other languages, header words from one table or, for an unknown \
        language, by position; `;` with decimal comma or `,`; mg/dL or \
        mmol/L; multi-section with repeated headers). Sensor Glucose becomes glucose, BG Reading and Sensor Calibration \
        BG blood_glucose, ISIG Value isig (nA), Basal Rate (or BasalProfileStart RATE=) basal_rate (U/h); delivered boluses (one per Bolus Number), \
        temp basals (temp_basal, no amount), a 7xxG's daily auto insulin (basal over the day), \
        BWZ carbs, event markers (Insulin, Meal, others as notes), alarms, suspends and rewinds become events; \
        events logged twice verbatim are kept once. Timestamps are local time: a zone is required.
        """,
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events],
    detect: { CareLinkColumns.detectScore($0) },
    // English header words (CareLinkHeaderWords' first spellings), for the nearest-format hint.
    signature: ["bg reading (", "sensor glucose (", "isig value", "basal rate (u/h)", "bolus volume delivered (u)", "bwz carb input (grams)"],
    build: { b in
        CareLinkSource(options: try CSVCommonOptions.read(b))
    })
