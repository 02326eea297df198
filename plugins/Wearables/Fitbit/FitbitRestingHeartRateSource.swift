import Foundation
import HealthPipeCore
import JSONFormats

/// `resting_heart_rate-YYYY-MM-DD.json` of Fitbit's account export: one object per day,
/// `{"dateTime": "MM/DD/YY 00:00:00", "value": {"date": "MM/DD/YY", "value": 61.37, "error": 7.2}}`.
/// The value is the day's: stored at the local midnight of `date` in the wearer's zone. A day Fitbit
/// could not compute is written with `"value": 0.0` — no value, not 0 bpm — and counted as skipped.
final class FitbitRestingHeartRateSource: Source, InputDescribing {
    static let format = "fitbit-resting-heart-rate"
    let options: FitbitOptions
    var inputPaths: [String] { [options.path] }

    init(options: FitbitOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        typealias F = FitbitFields
        let file = Symbol(options.path), subject = options.subject
        var resolver = ZoneResolver(zone: options.zone ?? TimeZone(secondsFromGMT: 0)!)
        let rule = Plausibility.rule(for: FitbitNames.restingHeartRate)!
        var noValue = 0
        // Every document is a day: stored, or skipped when Fitbit wrote no rate (0.0).
        try JSONFileRun(path: options.path, format: Self.format, context: context)
            .run(table: F.table, emit: emit, tally: RowTally(types: ["resting heart rate day"]), type: { _, _ in 0 }) { doc, out in
            // The day: `value.date`, or the date part of `dateTime` when a day has no date (null).
            let fromDate: Int64? = doc.withText(F.date) { FitbitDateTime.days($0) } ?? nil
            let fromTime: Int64? = (doc.withText(F.dateTime) { FitbitDateTime.seconds($0) } ?? nil).map { CivilDate.floorDiv($0, 86_400) }
            guard let day = fromDate ?? fromTime else {
                throw JSONFileRun.Reject("no day: value.date is not MM/DD/YY and dateTime not MM/DD/YY HH:MM:SS",
                                         at: doc.path(ofSlot: F.date))
            }
            guard let bpm = doc.number(F.dayValue) else {
                throw JSONFileRun.Reject("a day without a value number", at: doc.path(ofSlot: F.dayValue))
            }
            if bpm == 0 {
                noValue += 1
                return .skipped
            }
            if let why = rule.problem(bpm, unit: FitbitNames.perMinute) { throw JSONFileRun.Reject(why, at: doc.path(ofSlot: F.dayValue)) }
            let midnight = try resolver.resolve(local: day * 86_400)
            out.add(Measurement(subject: subject, metric: FitbitNames.restingHeartRate, source: FitbitNames.source,
                                start: midnight.utc, utcOffset: midnight.offset, value: bpm, unit: FitbitNames.perMinute,
                                flags: midnight.flags, provenance: Provenance(file: file, line: doc.line)))
            return .stored
        }
        if noValue > 0 {
            context.warn("\(options.path): not imported: \(noValue) day(s) without a resting heart rate (Fitbit writes 0.0)")
        }
    }
}

public let fitbitRestingHeartRateComponent = ComponentDescriptor(
    name: FitbitRestingHeartRateSource.format, role: .source, family: "Wearables",
    summary: """
        Fitbit account export resting heart rate (`resting_heart_rate-YYYY-MM-DD.json`: {dateTime, value {date \
        "MM/DD/YY", value, error}} per day): resting_heart_rate in count/min at the local midnight of the day \
        (--timezone); days written as 0.0 have no value and are counted as skipped. See docs/formats.md.
        """,
    options: FitbitOptions.docs,
    produces: [.measurements],
    detect: { FitbitFields.shape($0) == .restingHeartRate ? 88 : 0 },
    signature: FitbitFields.signature + ["\"date\"", "\"error\""],
    build: { b in FitbitRestingHeartRateSource(options: try FitbitOptions.read(b)) })
