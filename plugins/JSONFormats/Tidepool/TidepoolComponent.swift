import HealthPipeCore

/// Registry entry for the Tidepool source.
public let tidepoolComponent = ComponentDescriptor(
    name: TidepoolSource.format, role: .source, family: "JSONFormats",
    summary: """
        Tidepool JSON export (all devices of a person in one array), streamed: cbg/smbg become glucose/blood_glucose \
        in whole mg/dL (mmol/L converted; source: the CGM family from deviceId, so overlapping Nightscout/Clarity data \
        does not double-count), bloodKetone ketone; bolus and pen insulin become bolus events, basal segments basal events \
        with the insulin delivered, food and bolus-calculator carbs meal events, physicalActivity exercise, deviceEvent device \
        events. Local days follow each datum's timezoneOffset.
        """,
    options: TidepoolOptions.docs,
    produces: [.measurements, .events],
    detect: { TidepoolDetection.score($0) },
    // Words an export of this kind shows near its start: "unknown format" names the nearest format by them.
    signature: ["\"type\"", "\"time\"", "\"deviceid\"", "\"uploadid\"", "\"timezoneoffset\"", "\"devicetime\""],
    build: { b in
        TidepoolSource(options: try TidepoolOptions.read(b))
    })

/// Content detection: the first object is a Tidepool datum (a known `type`, an ISO `time`, and an
/// upload, device or datum id).
enum TidepoolDetection {
    static func score(_ sniff: FileSniff) -> Int {
        guard let doc = JSONSniff.firstObject(sniff, table: TidepoolFields.table),
              let type = doc.string(TidepoolFields.type), TidepoolFields.known.contains(type) else { return 0 }
        let ids = doc.has(TidepoolFields.uploadId) || doc.has(TidepoolFields.deviceId) || doc.has(TidepoolFields.id)
        let timed = doc.has(TidepoolFields.time) || type == "upload"
        return ids && timed ? 88 : 0
    }
}
