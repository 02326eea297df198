import HealthPipeCore

/// Registry entry for the Dexcom Clarity source.
public let dexcomClarityComponent = ComponentDescriptor(
    name: ClaritySource.format, role: .source, family: "CSVFormats",
    summary: """
        Dexcom Clarity CSV export (G6/G7/ONE+/Stelo; 12- or 14-column; mg/dL or mmol/L; every export language: \
        header words per language, else by structure; decimal commas; `,` or `;`). EGV readings become glucose \
        measurements (Low/High kept at 40/400 mg/dL with a flag), Calibration rows blood_glucose; Carbs, Insulin, \
        Exercise, Health (illness, stress…), Alert and Device rows become events. Timestamps are local time: a zone is required.
        """,
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events],
    detect: { ClarityColumns.looksLikeClarity($0) ? 90 : 0 },
    // English header words (ClarityVocabulary's first language), for the nearest-format hint.
    signature: ["timestamp (", "event type", "event subtype", "source device id", "glucose value", "insulin value", "transmitter id"],
    build: { b in
        ClaritySource(options: try CSVCommonOptions.read(b))
    })
