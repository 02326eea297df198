import Foundation
import HealthPipeCore
import JSONFormats

/// `heart_rate-YYYY-MM-DD.json` of Fitbit's account export: one array per day of
/// `{"dateTime": "MM/DD/YY HH:MM:SS", "value": {"bpm": 58, "confidence": 1}}`, a reading every 5–15 s
/// (tens of thousands a day, millions a year), streamed object by object with flat memory.
/// The times are UTC: a file named for a local day starts at that day's local midnight in UTC
/// (07:00 for a wearer on US Pacific summer time, 13:00 of the day before at UTC+11) — docs/formats.md.
/// `confidence` (0–3, Fitbit's own signal quality) is not kept: every reading Fitbit wrote is stored.
final class FitbitHeartRateSource: Source, InputDescribing {
    static let format = "fitbit-heart-rate"
    let options: FitbitOptions
    var inputPaths: [String] { [options.path] }

    init(options: FitbitOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        typealias F = FitbitFields
        let file = Symbol(options.path), subject = options.subject
        var zone = options.zone.map { ZoneOffsets(zone: $0) }
        let rule = Plausibility.rule(for: FitbitNames.heartRate)!
        // Every document is one reading (docs/reliability.md, "Every row accounted for").
        try JSONFileRun(path: options.path, format: Self.format, context: context)
            .run(table: F.table, emit: emit, tally: RowTally(types: ["heart rate"]), type: { _, _ in 0 }) { doc, out in
            guard let t = doc.withText(F.dateTime, { FitbitDateTime.seconds($0) }) ?? nil else {
                throw JSONFileRun.Reject("dateTime is not a Fitbit time such as 01/31/21 06:00:15", at: doc.path(ofSlot: F.dateTime))
            }
            guard let bpm = doc.number(F.bpm) else {
                throw JSONFileRun.Reject("a reading without a bpm number", at: doc.path(ofSlot: F.bpm))
            }
            if let why = rule.problem(bpm, unit: FitbitNames.perMinute) { throw JSONFileRun.Reject(why, at: doc.path(ofSlot: F.bpm)) }
            let offset = zone?.offset(atUTC: t) ?? 0
            out.add(Measurement(subject: subject, metric: FitbitNames.heartRate, source: FitbitNames.source, start: t,
                                utcOffset: offset, value: bpm, unit: FitbitNames.perMinute,
                                provenance: Provenance(file: file, line: doc.line)))
            return .stored
        }
    }
}

public let fitbitHeartRateComponent = ComponentDescriptor(
    name: FitbitHeartRateSource.format, role: .source, family: "Wearables",
    summary: """
        Fitbit account export heart rate (`heart_rate-YYYY-MM-DD.json`: {dateTime "MM/DD/YY HH:MM:SS" in UTC, \
        value {bpm, confidence}} every 5–15 s), streamed: each reading becomes heart_rate in count/min, source Fitbit. \
        --timezone places readings on the wearer's local days. See docs/formats.md.
        """,
    options: FitbitOptions.docs,
    produces: [.measurements],
    detect: { FitbitFields.shape($0) == .heartRate ? 88 : 0 },
    signature: FitbitFields.signature + ["\"bpm\"", "\"confidence\""],
    build: { b in FitbitHeartRateSource(options: try FitbitOptions.read(b)) })
