import Foundation
import HealthPipeCore
import JSONFormats

/// The per-minute series of Fitbit's account export — `steps-`, `distance-`, `calories-`,
/// `altitude-YYYY-MM-DD.json` — all written alike: `{"dateTime": "MM/DD/YY HH:MM:SS", "value": "12"}`,
/// the value a string, the time UTC (as heart rate's). Their content does not say which series a file
/// is, so its name as Fitbit writes it does (or the `series` option): the format is still found by
/// content, the name only picks the metric. A stream has no name: it needs the option.
/// Steps become step_count over the minute; the other series are counted as not imported (their units
/// are not yet verified on real files).
final class FitbitMinuteSeriesSource: Source, InputDescribing {
    static let format = "fitbit-minute-series"
    /// The series Fitbit writes in this shape, by the prefix of their file names.
    static let families = ["steps", "distance", "calories", "altitude"]

    let options: FitbitOptions
    let series: String?
    var inputPaths: [String] { [options.path] }

    init(options: FitbitOptions, series: String?) {
        self.options = options
        self.series = series
    }

    /// The family a file's name gives (`steps-2021-01-01.json` → steps); nil when it names none, and
    /// for a stream (standard input, a pipe): its name is the pipe's, not Fitbit's.
    static func family(fromName path: String) -> String? {
        if path == "-" { return nil }
        if let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType,
           type != .typeRegular { return nil }
        let name = URL(fileURLWithPath: path).lastPathComponent.lowercased()
        return families.first { name.hasPrefix($0 + "-") }
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        guard let family = series ?? Self.family(fromName: options.path) else {
            throw InputError(file: options.path, reason: "a Fitbit per-minute series (steps, distance, calories, altitude look "
                + "alike) whose name does not say which: save it to a file named as Fitbit names it (steps-2021-01-01.json), "
                + "or give the source's series option; standard input and pipes carry no name")
        }
        typealias F = FitbitFields
        let file = Symbol(options.path), subject = options.subject
        var zone = options.zone.map { ZoneOffsets(zone: $0) }
        let steps = family == "steps"
        let rule = Plausibility.rule(for: FitbitNames.stepCount)!
        var notImported = 0
        // Every document is a minute of the file's series: stored (steps) or skipped (another series).
        try JSONFileRun(path: options.path, format: Self.format, context: context)
            .run(table: F.table, emit: emit, tally: RowTally(types: [family]), type: { _, _ in 0 }) { doc, out in
            guard let t = doc.withText(F.dateTime, { FitbitDateTime.seconds($0) }) ?? nil else {
                throw JSONFileRun.Reject("dateTime is not a Fitbit time such as 01/31/21 06:00:00", at: doc.path(ofSlot: F.dateTime))
            }
            guard let v = doc.number(F.value) else {
                throw JSONFileRun.Reject("value is not a number", at: doc.path(ofSlot: F.value))
            }
            guard steps else {
                notImported += 1
                return .skipped
            }
            if let why = rule.problem(v, unit: FitbitNames.count) { throw JSONFileRun.Reject(why, at: doc.path(ofSlot: F.value)) }
            out.add(Measurement(subject: subject, metric: FitbitNames.stepCount, source: FitbitNames.source, start: t, end: t + 60,
                                utcOffset: zone?.offset(atUTC: t) ?? 0, value: v, unit: FitbitNames.count,
                                provenance: Provenance(file: file, line: doc.line)))
            return .stored
        }
        if notImported > 0 {
            context.warn("\(options.path): not imported: \(notImported) minute(s) of Fitbit \(family) (only steps are read so far)")
        }
    }
}

public let fitbitMinuteSeriesComponent = ComponentDescriptor(
    name: FitbitMinuteSeriesSource.format, role: .source, family: "Wearables",
    summary: """
        Fitbit account export per-minute series (`steps-`, `distance-`, `calories-`, `altitude-YYYY-MM-DD.json`: \
        {dateTime "MM/DD/YY HH:MM:SS" in UTC, value "12"}): steps become step_count per minute, source Fitbit; the \
        other series are counted as not imported. The file's Fitbit name (or the series option) says which series it \
        is, so a stream needs the option. See docs/formats.md.
        """,
    options: FitbitOptions.docs + [
        OptionDoc("series", "steps|distance|calories|altitude", default: "from the file's name", example: "steps",
                  "which series the file is (the files look alike inside)"),
    ],
    produces: [.measurements],
    // Only a named file: the name says which series it is.
    detect: { $0.isRegularFile && FitbitFields.shape($0) == .minuteSeries ? 85 : 0 },
    signature: FitbitFields.signature,
    build: { b in
        let series: String? = try b.value("series")
        if let series, !FitbitMinuteSeriesSource.families.contains(series) {
            throw b.error("series '\(series)' is not one of \(FitbitMinuteSeriesSource.families.joined(separator: ", "))", option: "series")
        }
        return FitbitMinuteSeriesSource(options: try FitbitOptions.read(b), series: series)
    })
