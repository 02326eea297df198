import Foundation
import HealthPipeCore

/// Withings' `raw_*.csv` files: `start,duration,value`, one row per burst of samples, `start` ISO
/// with the row's offset and `duration`/`value` JSON arrays of equal length (`"[60,60]","[6,5]"`):
/// element i starts where the durations before it end and lasts its own duration. The series (heart
/// rate, steps, calories, sleep state, SpO2) is told by the file's name (`WithingsRawFamily`); a
/// file of another series is counted as not imported.
final class WithingsRawSource: Source, InputDescribing {
    static let format = "withings-raw"
    static let header = "start,duration,value"
    static let time = try! TimestampPattern("%Y-%m-%dT%H:%M:%S%z")

    let options: CSVCommonOptions
    let series: WithingsRawFamily?
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions, series: WithingsRawFamily?) {
        self.options = options
        self.series = series
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let family: WithingsRawFamily?
        if let series {
            family = series
        } else if let name = WithingsRawFamily.rawName(path: options.path) {
            family = WithingsRawFamily.of(rawName: name)
        } else {
            throw InputError(file: options.path, reason: "a Withings raw file (start,duration,value: every series looks alike) whose "
                + "name does not say which series it is: save it as Withings names it (raw_tracker_hr.csv), or give the source's "
                + "series option; standard input and pipes carry no name")
        }
        let file = Symbol(options.path), subject = options.subject, source = Symbol("Withings")
        var durations: [Double] = [], values: [Double] = []
        durations.reserveCapacity(64)
        values.reserveCapacity(64)
        var rows = 0, notImported = 0
        try CSVFileRun(input: CSVInput(path: options.path), format: Self.format, context: context)
            .run(delimiter: UInt8(ascii: ","), emit: emit) { row, out in
                rows += 1
                if rows == 1, ByteText.equalsIgnoringCase(row.trimmed(0), "start") { return }  // the header
                if row.isBlank { return }
                guard let t = Self.time.parse(row.trimmed(0)), let offset = t.offset else {
                    throw CSVFileRun.Reject("start '\(row.trimmed(0).echo)' is not a time with its offset such as 2019-12-28T11:55:16+01:00")
                }
                durations.removeAll(keepingCapacity: true)
                values.removeAll(keepingCapacity: true)
                guard WithingsValueArray.read(row.trimmed(1), into: &durations), WithingsValueArray.read(row.trimmed(2), into: &values) else {
                    throw CSVFileRun.Reject("duration and value are not arrays of numbers such as [60,60] and [6,5]")
                }
                guard durations.count == values.count, !values.isEmpty else {
                    throw CSVFileRun.Reject("\(durations.count) duration(s) for \(values.count) value(s)")
                }
                guard let family else {
                    notImported += 1
                    return
                }
                var at = t.seconds - Int64(offset)
                let prov = Provenance(file: file, line: row.line)
                for (d, v) in zip(durations, values) {
                    guard d >= 0, d < 86_400, d == d.rounded() else {
                        throw CSVFileRun.Reject("duration \(Plausibility.number(d)) is not a whole number of seconds under a day")
                    }
                    guard let r = family.record(v, seconds: d) else {
                        throw CSVFileRun.Reject("sleep state \(Plausibility.number(v)) is none of 0 (awake), 1 (light), 2 (deep), 3 (rem)")
                    }
                    try out.add(Measurement(subject: subject, metric: r.metric, source: source, start: at, end: at + Int64(d),
                                            utcOffset: offset, value: r.value, unit: r.unit, provenance: prov), emit)
                    at += Int64(d)
                }
            }
        if notImported > 0 {
            context.warn("\(options.path): not imported: \(notImported) row(s) of a Withings raw series HealthPipe does not read "
                         + "(read: raw_*_hr, raw_*_steps, raw_*_calories-earned, raw_*_sleep-state, raw_spo2_auto_spo2, by the file's name)")
        }
    }

    /// The header line and a first row whose duration is an array.
    static func isRawFile(_ sniff: FileSniff) -> Bool {
        let lines = sniff.lines(2)
        guard lines.count == 2, lines[0].trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == header else { return false }
        let cells = lines[1].split(separator: ",", maxSplits: 1)
        return cells.count == 2 && time.parse(String(cells[0])) != nil && cells[1].contains("[")
    }
}

public let withingsRawComponent = ComponentDescriptor(
    name: WithingsRawSource.format, role: .source, family: "CSVFormats",
    summary: """
        Withings account export raw_*.csv (start,duration,value with JSON arrays such as "[60,60]","[6,5]"; ISO times \
        with their offset): each element over its own duration — heart rate (raw_*_hr), steps, active calories \
        (raw_*_calories-earned, kcal), sleep states (raw_*_sleep-state: sleep_analysis.awake/asleep_core/asleep_deep/\
        asleep_rem spans) and SpO2 (raw_spo2_auto_spo2), told by the file's name; other series counted as not imported.
        """,
    options: CSVCommonOptions.docs + [
        OptionDoc("series", WithingsRawFamily.names.map(\.0).joined(separator: "|"), default: "from the file's name", example: "hr",
                  "which series the file is (the files look alike inside)"),
    ],
    produces: [.measurements],
    // Only a named file: its name says which series it is (a stream is refused with the way out).
    detect: { $0.isRegularFile && WithingsRawSource.isRawFile($0) ? 75 : 0 },
    signature: ["start,duration,value"],
    build: { b in
        let series: String? = try b.value("series")
        guard let series else { return WithingsRawSource(options: try CSVCommonOptions.read(b), series: nil) }
        guard let family = WithingsRawFamily.named(series) else {
            throw b.error("series '\(series)' is not one of \(WithingsRawFamily.names.map(\.0).joined(separator: ", "))", option: "series")
        }
        return WithingsRawSource(options: try CSVCommonOptions.read(b), series: family)
    })
