import HealthPipeCore

/// Registry entry for the Nightscout source.
public let nightscoutComponent = ComponentDescriptor(
    name: NightscoutSource.format, role: .source, family: "JSONFormats",
    summary: """
        Nightscout JSON: API dumps (entries.json, treatments.json, devicestatus.json, profile.json) and mongoexport \
        files (one extended-JSON document per line), streamed with flat memory. sgv/mbg entries become glucose and \
        blood_glucose measurements in mg/dL (source: the CGM family, so overlapping Clarity/Tidepool exports do not \
        double-count); treatments become insulin (bolus, temp_basal), meal, device, exercise and note events with their \
        fields as metadata; device status becomes insulin/carbs on board, reservoir and battery measurements; the newest \
        profile (units, time zone, schedules) becomes the subject profile.
        """,
    options: NightscoutOptions.docs,
    produces: [.measurements, .events, .profiles],
    detect: { NightscoutDetection.score($0) },
    // Words an export of this kind shows near its start: "unknown format" names the nearest format by them.
    signature: ["\"sgv\"", "\"datestring\"", "\"direction\"", "\"eventtype\"", "\"created_at\"", "\"enteredby\""],
    build: { b in
        NightscoutSource(options: try NightscoutOptions.read(b))
    })

/// Content detection: the first document's keys say whether it is a Nightscout entry, treatment,
/// profile or device status (the file name never matters).
enum NightscoutDetection {
    static func score(_ sniff: FileSniff) -> Int {
        guard let doc = JSONSniff.firstObject(sniff, table: NightscoutFields.table) else { return 0 }
        typealias F = NightscoutFields
        switch F.kind(of: doc) {
        case .entry: return doc.has(F.date) || doc.has(F.dateString) ? 85 : 0
        case .treatment: return doc.has(F.createdAt) || doc.has(F.timestamp) ? 85 : 0
        case .profile: return doc.has(F.defaultProfile) ? 85 : 0
        case .deviceStatus: return doc.has(F.createdAt) ? 80 : 0
        case .unknown: return 0
        }
    }
}
