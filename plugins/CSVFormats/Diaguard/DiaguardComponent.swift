import HealthPipeCore

/// Registry entry for the Diaguard backup CSV.
public let diaguardComponent = ComponentDescriptor(
    name: DiaguardSource.format, role: .source, family: "CSVFormats",
    summary: """
        Diaguard backup CSV (the Android diary's Backup export: `"meta";"<version>"`, then `entry` rows each followed by \
        its `measurement`, `entryTag` and `foodEaten` rows). Blood sugar (mg/dL) becomes blood_glucose, insulin bolus, \
        correction and basal doses insulin events, meal carbs meal events, foods eaten meal events named after the food \
        (carbs from the backup's food list), activity minutes exercise events, HbA1c hba1c, weight body_mass, pulse \
        heart_rate, blood pressure systolic and diastolic, oxygen saturation; an entry's note and tags note events. \
        Tag and food lists are counted as skipped. Times are the phone's local clock: a zone is required.
        """,
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events],
    detect: { sniff in
        let lines = sniff.lines(8).map { $0.replacingOccurrences(of: "\"", with: "").lowercased() }
        guard let first = lines.first, first.hasPrefix("meta;"), first.dropFirst(5).allSatisfy(\.isNumber) else { return 0 }
        return lines.dropFirst().contains { $0.hasPrefix("entry;") || $0.hasPrefix("tag;") || $0.hasPrefix("food;") } ? 90 : 40
    },
    signature: ["meta", "entry", "measurement", "bloodsugar", "insulin", "entrytag", "foodeaten"],
    build: { b in
        DiaguardSource(options: try CSVCommonOptions.read(b))
    })
